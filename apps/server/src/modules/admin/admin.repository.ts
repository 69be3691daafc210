import type { TAdminUserQuery } from '@portico/shared/admin/api';
import type { TRole } from '@portico/shared/auth/schemas';
import type { TProxyListQuery } from '@portico/shared/proxy/api';
import { type AnyColumn, and, asc, count, eq, inArray, like, type SQL, sql } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import type { proxyPage } from '../../db/proxy-lists';
import type { TReadsOver } from '../../db/reads-over';
import { type TAuditLogRow, type TProxyConfigurationRow, users } from '../../db/schema';
import {
  decodeCursor,
  encodeCursor,
  likeContaining,
  SHORT_TEXT,
  TIMESTAMP_TEXT,
  UUID_TEXT,
} from '../../lib/list-cursor';

export type TAdminRepository = ReturnType<typeof createAdminRepository>;

export interface TAuditFilter {
  userId?: string;
  proxyId?: string;
  before?: number;
  limit: number;
}

/** An audit row with its target's name today; null when the target is gone or has none. */
export type TAuditRowNamed = TAuditLogRow & { targetName: string | null };

/** A proxy on the admin's all-proxies screen, with its owner. */
export type TAdminProxyRow = Pick<
  TProxyConfigurationRow,
  | 'id'
  | 'domain'
  | 'targetServer'
  | 'status'
  | 'sslConfigured'
  | 'serverSites'
  | 'origin'
  | 'adoptedFile'
  | 'lastFailure'
  | 'createdAt'
> & { userId: string; username: string; email: string };

/** What the admin screens ask of the proxies module (services.ts hands its reads over). */
export interface TAdminProxyReads {
  countOwnedByColumn(userId: AnyColumn): SQL<number>;
  domainsOf(ids: string[]): Promise<{ id: string; name: string }[]>;
  ownersByProxyCount(): Promise<
    { userId: string; username: string; email: string; proxyCount: number }[]
  >;
  allWithOwners(): Promise<TAdminProxyRow[]>;
  allWithOwnersPage(
    query: TProxyListQuery & { limit: number },
    now: Date,
  ): ReturnType<typeof proxyPage<TAdminProxyRow & { key: string }>>;
}

/** What the admin screens ask of the saved servers module. */
export interface TAdminServerReads {
  namesOf(ids: string[]): Promise<{ id: string; name: string }[]>;
}

/** What the admin screens ask of the audit module. */
export interface TAdminAuditReads {
  page(filter: TAuditFilter): Promise<TAuditLogRow[]>;
}

/** The owners' reads the admin screens join, each built over a handle (services.ts hands them over). */
export type TAdminReadsOver = TReadsOver<{
  proxies: TAdminProxyReads;
  servers: TAdminServerReads;
  audit: TAdminAuditReads;
}>;

export type TRoleOutcome =
  | { kind: 'not_found' }
  | { kind: 'last_admin' }
  | { kind: 'changed' | 'unchanged'; before: TRole; username: string };

/**
 * The joins and aggregates of the admin screens; writes go through the owning services.
 * `over` builds the owners' reads over the same handle as `db`.
 */
export function createAdminRepository(db: TDb, over: TAdminReadsOver) {
  const proxies = over.proxies(db);
  const servers = over.servers(db);
  const audit = over.audit(db);
  /** `type:id` → name of the target types whose rows have one. */
  const namedTargets: Record<string, (ids: string[]) => Promise<{ id: string; name: string }[]>> = {
    proxy_configuration: (ids) => proxies.domainsOf(ids),
    user: (ids) =>
      db.select({ id: users.id, name: users.username }).from(users).where(inArray(users.id, ids)),
    ssh_server: (ids) => servers.namesOf(ids),
  };
  const adminUserRow = {
    id: users.id,
    username: users.username,
    email: users.email,
    role: users.role,
    createdAt: users.createdAt,
  };

  /** `type:id` → name for the targets of a page; ids that are no UUID cannot name a row. */
  async function targetNames(rows: TAuditLogRow[]): Promise<Map<string, string>> {
    const names = new Map<string, string>();
    for (const [type, namesOf] of Object.entries(namedTargets)) {
      const ids = new Set(
        rows
          .filter((r) => r.targetType === type && UUID_TEXT.test(r.targetId))
          .map((r) => r.targetId),
      );
      if (ids.size === 0) continue;
      const found = await namesOf([...ids]);
      for (const row of found) names.set(`${type}:${row.id}`, row.name);
    }
    return names;
  }

  return {
    async countUsers(): Promise<number> {
      const rows = await db.select({ n: count() }).from(users);
      return Number(rows[0]?.n ?? 0);
    },

    /** Only users with at least one proxy (inner join), most proxies first. */
    async proxiesByUser() {
      return proxies.ownersByProxyCount();
    },

    async allProxies() {
      return proxies.allWithOwners();
    },

    /** One page of every user's proxies (db/proxy-lists.ts), with its counts. */
    async allProxiesPage(query: TProxyListQuery & { limit: number }, now: Date) {
      return proxies.allWithOwnersPage(query, now);
    },

    /**
     * One page of the users, oldest first (the whole list's order), found by username or e-mail,
     * with the number of each role among those found.
     */
    async usersPage(query: TAdminUserQuery & { limit: number }) {
      // search_text is the name and e-mail lower-cased (schema): one plain LIKE.
      const q = query.q ? likeContaining(query.q.toLowerCase()) : undefined;
      const found = q ? like(users.searchText, q) : undefined;
      let after: SQL | undefined;
      if (query.cursor) {
        const [at, username, id] = decodeCursor(query.cursor, 'users', [
          TIMESTAMP_TEXT,
          SHORT_TEXT,
          UUID_TEXT,
        ]);
        after = sql`(${users.createdAt}, ${users.username}, ${users.id}) > (${at}::timestamptz, ${username}::text, ${id}::uuid)`;
      }
      const rows = await db
        .select({
          ...adminUserRow,
          // Counted per user found, through the owner index, not over every proxy.
          proxyCount: proxies.countOwnedByColumn(users.id),
          key: sql<string>`${users.createdAt}::text`,
        })
        .from(users)
        .where(and(found, query.role ? eq(users.role, query.role) : undefined, after))
        .orderBy(asc(users.createdAt), asc(users.username), asc(users.id))
        .limit(query.limit + 1);
      const byRole = await db
        .select({ role: users.role, n: count().mapWith(Number) })
        .from(users)
        .where(found)
        .groupBy(users.role);
      const page = rows.slice(0, query.limit);
      const last = page[page.length - 1];
      const role = {
        user: byRole.find((r) => r.role === 'user')?.n ?? 0,
        admin: byRole.find((r) => r.role === 'admin')?.n ?? 0,
      };
      return {
        rows: page,
        nextCursor:
          rows.length > query.limit && last
            ? encodeCursor('users', [last.key, last.username, last.id])
            : null,
        total: query.role ? role[query.role] : role.user + role.admin,
        counts: { role },
      };
    },

    /** Every user, or the one with `id`, with the number of proxies they own. */
    async listUsers(id?: string) {
      return db
        .select({ ...adminUserRow, proxyCount: proxies.countOwnedByColumn(users.id) })
        .from(users)
        .where(id ? eq(users.id, id) : undefined)
        .orderBy(asc(users.createdAt), asc(users.username), asc(users.id));
    },

    /**
     * Newest first by id (ids grow with every insert; timestamps can tie), each row with its
     * target's current name: one primary-key lookup per target type on the page, never per row.
     */
    async auditPage(filter: TAuditFilter): Promise<TAuditRowNamed[]> {
      const rows = await audit.page(filter);
      const names = await targetNames(rows);
      return rows.map((row) => ({
        ...row,
        targetName: names.get(`${row.targetType}:${row.targetId}`) ?? null,
      }));
    },

    /**
     * Sets a role unless it would leave no admin. The admin rows are locked first, so two
     * concurrent demotions cannot each see the other as the remaining admin.
     */
    async setRoleKeepingAnAdmin(id: string, role: TRole): Promise<TRoleOutcome> {
      return db.transaction(async (tx) => {
        const admins = await tx
          .select({ id: users.id })
          .from(users)
          .where(eq(users.role, 'admin'))
          .for('update');
        const target = (
          await tx
            .select({ role: users.role, username: users.username })
            .from(users)
            .where(eq(users.id, id))
            .for('update')
        )[0];
        if (!target) return { kind: 'not_found' };
        if (target.role === role) {
          return { kind: 'unchanged', before: target.role, username: target.username };
        }
        if (role !== 'admin' && !admins.some((a) => a.id !== id)) return { kind: 'last_admin' };
        await tx.update(users).set({ role, updatedAt: new Date() }).where(eq(users.id, id));
        return { kind: 'changed', before: target.role, username: target.username };
      });
    },
  };
}
