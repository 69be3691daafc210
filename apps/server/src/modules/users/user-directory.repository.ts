import type { TAdminUserQuery } from '@portico/shared/admin/api';
import type { TRole } from '@portico/shared/auth/schemas';
import { type AnyColumn, and, asc, count, eq, inArray, like, type SQL, sql } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { users } from '../../db/schema';
import {
  decodeCursor,
  encodeCursor,
  likeContaining,
  SHORT_TEXT,
  TIMESTAMP_TEXT,
  UUID_TEXT,
} from '../../lib/list-cursor';

export type TUserDirectory = ReturnType<typeof createUserDirectory>;

/**
 * A column to select beside each users row, given the row's id column: the admin screens pass
 * the proxies module's count of the proxies each account owns, so a page stays one statement.
 */
export type TBesideEachUser = (userId: AnyColumn) => SQL<number>;

export type TRoleOutcome =
  | { kind: 'not_found' }
  | { kind: 'last_admin' }
  | { kind: 'changed' | 'unchanged'; before: TRole; username: string };

/**
 * The accounts as the admin screens read them (the list, its pages, the audit page's names) and
 * the role change that keeps an admin. services.ts hands these over to the admin repository,
 * built over its handle.
 */
export function createUserDirectory(db: TDb) {
  const adminUserRow = {
    id: users.id,
    username: users.username,
    email: users.email,
    role: users.role,
    createdAt: users.createdAt,
  };

  return {
    async count(): Promise<number> {
      const rows = await db.select({ n: count() }).from(users);
      return Number(rows[0]?.n ?? 0);
    },

    /** The name of each of `ids` that is an account (the audit page's target names). */
    async namesOf(ids: string[]): Promise<{ id: string; name: string }[]> {
      return db
        .select({ id: users.id, name: users.username })
        .from(users)
        .where(inArray(users.id, ids));
    },

    /**
     * One page of the users, oldest first (the whole list's order), found by username or e-mail,
     * with the number of each role among those found and `proxyCount` beside each row.
     */
    async page(query: TAdminUserQuery & { limit: number }, proxyCount: TBesideEachUser) {
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
          proxyCount: proxyCount(users.id),
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

    /** Every user, or the one with `id`, with `proxyCount` beside each. */
    async list(id: string | undefined, proxyCount: TBesideEachUser) {
      return db
        .select({ ...adminUserRow, proxyCount: proxyCount(users.id) })
        .from(users)
        .where(id ? eq(users.id, id) : undefined)
        .orderBy(asc(users.createdAt), asc(users.username), asc(users.id));
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
