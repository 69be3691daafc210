import type { TAdminUserQuery } from '@portico/shared/admin/api';
import type { TRole } from '@portico/shared/auth/schemas';
import type { TProxyListQuery } from '@portico/shared/proxy/api';
import { and, asc, count, desc, eq, inArray, like, lt, or, type SQL, sql } from 'drizzle-orm';
import { builtOnce } from '../../db/built-once';
import type { TDb } from '../../db/client';
import { proxyPage } from '../../db/proxy-lists';
import {
  auditLog,
  proxyConfigurations,
  sshServers,
  type TAuditLogRow,
  users,
} from '../../db/schema';
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

/** The target types whose rows have a display name, and the column that holds it. */
const NAMED_TARGETS = {
  proxy_configuration: { table: proxyConfigurations, name: proxyConfigurations.domain },
  user: { table: users, name: users.username },
  ssh_server: { table: sshServers, name: sshServers.name },
} as const;

export type TRoleOutcome =
  | { kind: 'not_found' }
  | { kind: 'last_admin' }
  | { kind: 'changed' | 'unchanged'; before: TRole; username: string };

/** The joins and aggregates of the admin screens; writes go through the owning services. */
export function createAdminRepository(db: TDb) {
  const adminProxyRow = {
    id: proxyConfigurations.id,
    domain: proxyConfigurations.domain,
    targetServer: proxyConfigurations.targetServer,
    status: proxyConfigurations.status,
    sslConfigured: proxyConfigurations.sslConfigured,
    serverSites: proxyConfigurations.serverSites,
    origin: proxyConfigurations.origin,
    adoptedFile: proxyConfigurations.adoptedFile,
    lastFailure: proxyConfigurations.lastFailure,
    createdAt: proxyConfigurations.createdAt,
    userId: users.id,
    username: users.username,
    email: users.email,
  };
  // The all-proxies screen: built at first use, prepared once per connection.
  const allProxies = builtOnce(() =>
    db
      .select(adminProxyRow)
      .from(proxyConfigurations)
      .innerJoin(users, eq(users.id, proxyConfigurations.userId))
      .orderBy(desc(proxyConfigurations.createdAt), desc(proxyConfigurations.id))
      .prepare('admin_all_proxies'),
  );

  const proxyCount = count(proxyConfigurations.id).mapWith(Number);
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
    for (const [type, target] of Object.entries(NAMED_TARGETS)) {
      const ids = new Set(
        rows
          .filter((r) => r.targetType === type && UUID_TEXT.test(r.targetId))
          .map((r) => r.targetId),
      );
      if (ids.size === 0) continue;
      const found = await db
        .select({ id: target.table.id, name: target.name })
        .from(target.table)
        .where(inArray(target.table.id, [...ids]));
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
      return db
        .select({
          userId: users.id,
          username: users.username,
          email: users.email,
          proxyCount,
        })
        .from(users)
        .innerJoin(proxyConfigurations, eq(proxyConfigurations.userId, users.id))
        .groupBy(users.id)
        .orderBy(desc(proxyCount), asc(users.username), asc(users.id));
    },

    async allProxies() {
      return allProxies().execute();
    },

    /** One page of every user's proxies (db/proxy-lists.ts), with its counts. */
    async allProxiesPage(query: TProxyListQuery & { limit: number }, now: Date) {
      return proxyPage(db, undefined, query, now, (plan) =>
        db
          .select({ ...adminProxyRow, key: plan.key })
          .from(proxyConfigurations)
          .innerJoin(users, eq(users.id, proxyConfigurations.userId))
          .where(plan.where)
          .orderBy(...plan.orderBy)
          .limit(plan.limit),
      );
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
          proxyCount:
            sql<number>`(select count(*) from ${proxyConfigurations} where ${proxyConfigurations.userId} = ${users.id})`.mapWith(
              Number,
            ),
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
        .select({ ...adminUserRow, proxyCount })
        .from(users)
        .leftJoin(proxyConfigurations, eq(proxyConfigurations.userId, users.id))
        .where(id ? eq(users.id, id) : undefined)
        .groupBy(users.id)
        .orderBy(asc(users.createdAt), asc(users.username), asc(users.id));
    },

    /**
     * Newest first by id (ids grow with every insert; timestamps can tie), each row with its
     * target's current name: one primary-key lookup per target type on the page, never per row.
     */
    async auditPage(filter: TAuditFilter): Promise<TAuditRowNamed[]> {
      const conditions: (SQL | undefined)[] = [];
      if (filter.userId) {
        conditions.push(
          or(eq(auditLog.actorId, filter.userId), eq(auditLog.targetOwnerId, filter.userId)),
        );
      }
      if (filter.proxyId) {
        conditions.push(
          and(
            eq(auditLog.targetType, 'proxy_configuration'),
            eq(auditLog.targetId, filter.proxyId),
          ),
        );
      }
      if (filter.before !== undefined) conditions.push(lt(auditLog.id, filter.before));
      const rows = await db
        .select()
        .from(auditLog)
        .where(and(...conditions))
        .orderBy(desc(auditLog.id))
        .limit(filter.limit);
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
