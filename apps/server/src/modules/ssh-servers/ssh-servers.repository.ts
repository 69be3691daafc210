import { and, asc, count, desc, eq, ilike, isNull, lt, or, sql } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { keysetPage, timeKeyset } from '../../db/keyset';
import { sshServers, type TNewSshServerRow, type TSshServerRow, users } from '../../db/schema';
import { passwordsToMove } from '../../db/server-password-moves';
import { likeContaining } from '../../lib/list-cursor';
import type { TKnownProxy } from './site-scan';

export type TSshServersRepository = ReturnType<typeof createSshServersRepository>;

export type TSshServerWrite = Partial<
  Omit<TSshServerRow, 'id' | 'userId' | 'createdAt' | 'updatedAt'>
>;

/** A page of servers with what the list shows beside each: the owner and the proxies on it. */
export interface TSshServerListRow {
  server: TSshServerRow;
  owner: string;
  proxyCount: number;
}

/** One page is at most this many rows: a list is fine at 10,000 servers. */
export const SSH_SERVER_PAGE = 200;
/** The name of the paged list's one order in its cursors: newest first. */
const SSH_SERVER_SORT = 'created';

/** A check looks at this many adopted files of a server at most (one exec, its arguments). */
export const ADOPTED_LOOK_LIMIT = 2000;

/** A proxy on a saved server, one of a batch. */
interface TProxyOnServer {
  id: string;
  domain: string;
}

/** An adopted site on a saved server, as its proxy records it. */
interface TAdoptedProxy extends TProxyOnServer {
  adoptedFile: string | null;
  adoptedSha256: string | null;
}

/** What the saved servers ask of the proxies module (services.ts hands its reads over). */
export interface TServersProxyReads {
  countsOn(ids: string[]): Promise<Map<string, number>>;
  on(serverId: string, afterId: string | undefined, limit: number): Promise<TProxyOnServer[]>;
  holdingDomains(domains: string[]): Promise<TKnownProxy[]>;
  markAdoptedChange(
    proxyId: string,
    changedAt: Date | null | 'kept',
    missingAt: Date | null,
  ): Promise<void>;
  adoptedOn(serverId: string, limit: number): Promise<TAdoptedProxy[]>;
  forgetHostKeysOn(serverId: string): Promise<void>;
}

/** `proxiesOver` builds the proxies' reads over the same handle as `db`. */
export function createSshServersRepository(db: TDb, proxiesOver: (db: TDb) => TServersProxyReads) {
  const proxies = proxiesOver(db);
  const countsOf = (ids: string[]) => proxies.countsOn(ids);

  return {
    async findById(id: string): Promise<TSshServerRow | undefined> {
      const [row] = await db.select().from(sshServers).where(eq(sshServers.id, id)).limit(1);
      return row;
    },

    /**
     * Newest first, `SSH_SERVER_PAGE` at a time after the cursor (the last row's createdAt and
     * id); one user's, or everyone's for an admin (`userId` undefined).
     */
    async list(
      userId: string | undefined,
      after?: { createdAt: Date; id: string },
    ): Promise<TSshServerListRow[]> {
      const rows = await db
        .select({ server: sshServers, owner: users.username })
        .from(sshServers)
        .innerJoin(users, eq(users.id, sshServers.userId))
        .where(
          and(
            userId ? eq(sshServers.userId, userId) : undefined,
            after
              ? or(
                  lt(sshServers.createdAt, after.createdAt),
                  and(eq(sshServers.createdAt, after.createdAt), lt(sshServers.id, after.id)),
                )
              : undefined,
          ),
        )
        .orderBy(desc(sshServers.createdAt), desc(sshServers.id))
        .limit(SSH_SERVER_PAGE);
      const counts = await countsOf(rows.map((r) => r.server.id));
      return rows.map((r) => ({ ...r, proxyCount: counts.get(r.server.id) ?? 0 }));
    },

    /**
     * The account's server at exactly `username@host:port` (the oldest, should there be two): a
     * proxy typed with the spec's fields joins it rather than saving the server twice. Bounded by
     * the account's servers (`ssh_servers_user_idx`), at most its server limit.
     */
    async findByTarget(
      userId: string,
      target: { host: string; port: number; username: string },
    ): Promise<TSshServerRow | undefined> {
      const [row] = await db
        .select()
        .from(sshServers)
        .where(
          and(
            eq(sshServers.userId, userId),
            eq(sshServers.host, target.host),
            eq(sshServers.port, target.port),
            eq(sshServers.username, target.username),
          ),
        )
        .orderBy(asc(sshServers.createdAt), asc(sshServers.id))
        .limit(1);
      return row;
    },

    /**
     * One page of the lists' contract (docs/PRODUCT.md#lists-in-pages), newest first: `q` finds
     * the name, host or user; `total` counts every row it matches.
     */
    async page(
      userId: string | undefined,
      query: { q?: string; cursor?: string; limit: number },
    ): Promise<{ rows: TSshServerListRow[]; nextCursor: string | null; total: number }> {
      const s = sshServers;
      const q = query.q ? likeContaining(query.q) : undefined;
      const filters = and(
        userId ? eq(s.userId, userId) : undefined,
        q ? or(ilike(s.name, q), ilike(s.host, q), ilike(s.username, q)) : undefined,
      );
      const keyset = timeKeyset(SSH_SERVER_SORT, sql`${s.createdAt}`, s.id, true, query.cursor);
      const read = await db
        .select({ server: s, owner: users.username, key: keyset.key })
        .from(s)
        .innerJoin(users, eq(users.id, s.userId))
        .where(and(filters, keyset.after))
        .orderBy(...keyset.orderBy)
        .limit(query.limit + 1);
      const { rows, nextCursor } = keysetPage(
        read,
        query.limit,
        SSH_SERVER_SORT,
        (r) => r.server.id,
      );
      const [counted] = await db.select({ n: count() }).from(s).where(filters);
      const counts = await countsOf(rows.map((r) => r.server.id));
      return {
        rows: rows.map((r) => ({ ...r, proxyCount: counts.get(r.server.id) ?? 0 })),
        nextCursor,
        total: counted?.n ?? 0,
      };
    },

    /** The proxies on a server, `limit` at a time in id order after `afterId` (a cursor). */
    async proxiesOn(id: string, afterId: string | undefined, limit: number) {
      return proxies.on(id, afterId, limit);
    },

    /** The proxies holding any of these domains (a scan's names). */
    async proxiesForDomains(domains: string[]): Promise<TKnownProxy[]> {
      return proxies.holdingDomains(domains);
    },

    /**
     * An adopted site's file as a look found it: changed by hand since adoption or not (`kept`:
     * not known, a gone file), gone or there (each time kept from the first look that saw it).
     */
    async markAdoptedChange(
      proxyId: string,
      changedAt: Date | null | 'kept',
      missingAt: Date | null = null,
    ): Promise<void> {
      await proxies.markAdoptedChange(proxyId, changedAt, missingAt);
    },

    /** The sites adopted on a server (its proxies' index), at most `limit`: what a check looks at. */
    async adoptedOnServer(serverId: string, limit = ADOPTED_LOOK_LIMIT) {
      return proxies.adoptedOn(serverId, limit);
    },

    async proxyCount(id: string): Promise<number> {
      return (await countsOf([id])).get(id) ?? 0;
    },

    async insert(row: TNewSshServerRow): Promise<TSshServerRow> {
      const [inserted] = await db.insert(sshServers).values(row).returning();
      return inserted!;
    },

    async update(id: string, changes: TSshServerWrite): Promise<TSshServerRow | undefined> {
      const [row] = await db
        .update(sshServers)
        .set({ ...changes, updatedAt: new Date() })
        .where(eq(sshServers.id, id))
        .returning();
      return row;
    },

    /** Trust on first use: pins `fingerprint` only where none is pinned and the host is the same. */
    async pinHostKey(
      id: string,
      fingerprint: string,
      where: { host: string; port: number },
    ): Promise<void> {
      await db
        .update(sshServers)
        .set({ hostKeyFingerprint: fingerprint })
        .where(
          and(
            eq(sshServers.id, id),
            isNull(sshServers.hostKeyFingerprint),
            eq(sshServers.host, where.host),
            eq(sshServers.port, where.port),
          ),
        );
    },

    /**
     * "Forget key": the server's pin and the pins its proxies kept from before servers existed,
     * so the next contact with it pins again (one indexed update, however many proxies).
     */
    async forgetHostKey(id: string): Promise<TSshServerRow | undefined> {
      await proxies.forgetHostKeysOn(id);
      const [row] = await db
        .update(sshServers)
        .set({ hostKeyFingerprint: null, updatedAt: new Date() })
        .where(eq(sshServers.id, id))
        .returning();
      return row;
    },

    /** Deletes the server unless a proxy uses it (checked again by the foreign key). */
    async delete(id: string): Promise<boolean> {
      const deleted = await db.delete(sshServers).where(eq(sshServers.id, id)).returning({
        id: sshServers.id,
      });
      return deleted.length > 0;
    },

    /**
     * Servers made by migration 0014 still without the password their proxies hold: a bounded
     * batch, with one proxy each whose password was entered for the server's very target.
     */
    async passwordsToMove(afterServerId: string, limit: number) {
      return passwordsToMove(db, afterServerId, limit);
    },

    /** Sets a moved password only where none was set meanwhile. */
    async setMovedPassword(id: string, passwordEnc: string): Promise<boolean> {
      const rows = await db
        .update(sshServers)
        .set({ passwordEnc, updatedAt: new Date() })
        .where(and(eq(sshServers.id, id), isNull(sshServers.passwordEnc)))
        .returning({ id: sshServers.id });
      return rows.length > 0;
    },
  };
}
