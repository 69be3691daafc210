import type { TProxyListQuery } from '@portico/shared/proxy/api';
import {
  type AnyColumn,
  asc,
  count,
  desc,
  eq,
  getTableName,
  inArray,
  type SQL,
  sql,
} from 'drizzle-orm';
import { builtOnce } from '../../db/built-once';
import type { TDb } from '../../db/client';
import { cursorKey, keysetParts } from '../../db/keyset';
import {
  LIST_PART,
  LIST_SORT,
  proxyPage,
  type TKeptProxyListCounts,
  WHOLE_LIST_WALK,
} from '../../db/proxy-lists';
import { proxyConfigurations, users } from '../../db/schema';

export type TProxyOwnerReads = ReturnType<typeof createProxyOwnerReads>;

/**
 * What other modules ask about whose proxies are whose: the account limits' count, the admin's
 * lists of every proxy with its owner and of the owners with their counts. services.ts hands
 * these reads over, built over the same handle (the app's, or a transaction's) as the repository
 * that asks.
 */
export function createProxyOwnerReads(db: TDb, listCounts?: TKeptProxyListCounts) {
  const withOwnerRow = {
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
  // The admin's whole list, its first part and a part after a cursor, each prepared once.
  const walk = WHOLE_LIST_WALK;
  const allWithOwnersPart = (after: SQL | undefined, name: string) =>
    builtOnce(() =>
      db
        .select({ ...withOwnerRow, key: walk.key })
        .from(proxyConfigurations)
        .innerJoin(users, eq(users.id, proxyConfigurations.userId))
        .where(after)
        .orderBy(...walk.orderBy)
        .limit(walk.limit)
        .prepare(name),
    );
  const allWithOwnersFirst = allWithOwnersPart(undefined, 'admin_all_proxies');
  const allWithOwnersAfter = allWithOwnersPart(walk.after, 'admin_all_proxies_after');
  const proxyCount = count(proxyConfigurations.id).mapWith(Number);

  return {
    /**
     * The number of proxies the user in column `userId` owns, to select beside a users row:
     * counted per user through the owner index, not over every proxy.
     */
    countOwnedByColumn(userId: AnyColumn): SQL<number> {
      // Named with its table: in a select from one table drizzle writes its columns bare, and a
      // bare "id" inside the subquery is the proxy's own (every count was 0).
      const owner = sql`${sql.identifier(getTableName(userId.table))}.${sql.identifier(userId.name)}`;
      return sql<number>`(select count(*) from ${proxyConfigurations} where ${proxyConfigurations.userId} = ${owner})`.mapWith(
        Number,
      );
    },

    /** The domain of each of `ids` that is a proxy (the audit page's target names). */
    async domainsOf(ids: string[]): Promise<{ id: string; name: string }[]> {
      return db
        .select({ id: proxyConfigurations.id, name: proxyConfigurations.domain })
        .from(proxyConfigurations)
        .where(inArray(proxyConfigurations.id, ids));
    },

    /** Only users with at least one proxy (inner join), most proxies first. */
    async ownersByProxyCount() {
      return db
        .select({ userId: users.id, username: users.username, email: users.email, proxyCount })
        .from(users)
        .innerJoin(proxyConfigurations, eq(proxyConfigurations.userId, users.id))
        .groupBy(users.id)
        .orderBy(desc(proxyCount), asc(users.username), asc(users.id));
    },

    /**
     * Every proxy with its owner, newest first, LIST_PART rows at a time, so the caller maps
     * each part before the next is read (as the user's whole list, proxy-whole-list.repository).
     */
    async *allWithOwnersInParts() {
      yield* keysetParts(
        await allWithOwnersFirst().execute(),
        { limit: LIST_PART, sort: LIST_SORT, idOf: (row) => row.id },
        (cursor) => allWithOwnersAfter().execute(cursorKey(cursor, LIST_SORT)),
      );
    },

    /** One page of every user's proxies with their owners (db/proxy-lists.ts), with its counts. */
    async allWithOwnersPage(query: TProxyListQuery & { limit: number }, now: Date) {
      return proxyPage(
        db,
        { where: undefined, key: 'all' },
        query,
        now,
        (plan) =>
          db
            .select({ ...withOwnerRow, key: plan.key })
            .from(proxyConfigurations)
            .innerJoin(users, eq(users.id, proxyConfigurations.userId))
            .where(plan.where)
            .orderBy(...plan.orderBy)
            .limit(plan.limit),
        listCounts,
      );
    },

    /** How many proxies the account owns: one indexed count over its own rows. */
    async countOwnedBy(userId: string): Promise<number> {
      return (
        await db
          .select({ n: count() })
          .from(proxyConfigurations)
          .where(eq(proxyConfigurations.userId, userId))
      )[0]!.n;
    },
  };
}
