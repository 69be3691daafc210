import { and, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import { readsByKey } from '../../db/batched-reads';
import { builtOnce } from '../../db/built-once';
import type { TDb } from '../../db/client';
import { cursorKey, keysetParts } from '../../db/keyset';
import { LIST_PART, LIST_SORT, WHOLE_LIST_WALK } from '../../db/proxy-lists';
import { proxyConfigurations as p, type TProxyConfigurationRow } from '../../db/schema';

type TListRow = TProxyConfigurationRow & { key: string };

/**
 * A user's whole list (the list route without list parameters), read in parts. `batchReads`:
 * the app's shared repository reads the first parts of all the requests waiting at once.
 */
export function createWholeListReads(db: TDb, { batchReads }: { batchReads: boolean }) {
  // The first part of each user's list (LIST_PART rows, and one more that tells of a next part),
  // newest first, each row with its keyset key.
  const walk = WHOLE_LIST_WALK;
  const firstParts = builtOnce(() => {
    const placed = db
      .select({
        ...getTableColumns(p),
        key: walk.key.as('key'),
        place:
          sql<number>`row_number() over (partition by ${p.userId} order by ${sql.join(walk.orderBy, sql`, `)})`.as(
            'place',
          ),
      })
      .from(p)
      .where(sql`${p.userId} = any(${sql.placeholder('userIds')}::uuid[])`)
      .as('placed');
    return db
      .select()
      .from(placed)
      .where(sql`${placed.place} <= ${walk.limit}`)
      .orderBy(desc(placed.createdAt), desc(placed.id))
      .prepare('proxies_by_users');
  });
  // A user's next part after a cursor.
  const partAfter = builtOnce(() =>
    db
      .select({ ...getTableColumns(p), key: walk.key })
      .from(p)
      .where(and(eq(p.userId, sql.placeholder('userId')), walk.after))
      .orderBy(...walk.orderBy)
      .limit(walk.limit)
      .prepare('proxies_of_user_after'),
  );
  const firstPartOf = readsByKey(
    async (userIds: string[]) => {
      const parts = new Map<string, TListRow[]>(userIds.map((id) => [id, []]));
      // In the query's order (newest first) within each user's part.
      for (const row of await firstParts().execute({ userIds })) parts.get(row.userId)?.push(row);
      return parts;
    },
    { batched: batchReads },
  );

  return {
    /**
     * The user's whole list newest first, LIST_PART rows at a time, so that the caller maps each
     * part before the next is read: 10,000 rows read at once raised the server's peak by 20-40
     * MiB (docs/PERFORMANCE.md). The next parts by keyset, each after the last row before it.
     */
    async *listByUserInParts(userId: string): AsyncGenerator<TProxyConfigurationRow[]> {
      yield* keysetParts(
        (await firstPartOf(userId)) ?? [],
        { limit: LIST_PART, sort: LIST_SORT, idOf: (row) => row.id },
        (cursor) => partAfter().execute({ userId, ...cursorKey(cursor, LIST_SORT) }),
      );
    },
  };
}
