import { and, asc, eq, sql } from 'drizzle-orm';
import type { TDb } from './client';
import type { proxyConfigurations, sshServers } from './schema';

/** Where a walk stopped: the last row's creation time (as text, to the microsecond) and id. */
export type TBatchAfter = { key: string; id: string } | undefined;

/**
 * One account's rows oldest first, `limit` at a time after `after`, over the (user, created, id)
 * index each table already has for its lists: the transfer's walk over the saved servers and
 * (through the proxies module) the proxies.
 */
export function ownedBatchAfter<T extends typeof sshServers | typeof proxyConfigurations>(
  table: T,
) {
  return (db: TDb, userId: string, after: TBatchAfter, limit: number) =>
    db
      .select({ row: table, key: sql<string>`${table.createdAt}::text` })
      .from(table as typeof sshServers)
      .where(
        and(
          eq(table.userId, userId),
          after
            ? sql`(${table.createdAt}, ${table.id}) > (${after.key}::timestamptz, ${after.id}::uuid)`
            : undefined,
        ),
      )
      .orderBy(asc(table.createdAt), asc(table.id))
      .limit(limit);
}
