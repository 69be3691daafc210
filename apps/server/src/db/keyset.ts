import { type AnyColumn, type SQL, sql } from 'drizzle-orm';
import { decodeCursor, encodeCursor, TIMESTAMP_TEXT, UUID_TEXT } from '../lib/list-cursor';

// A list walked in pages by a timestamp key and the row id (lib/list-cursor.ts), for the lists
// whose one sort is such a key: the rows after a cursor, and the cursor after a page.

export interface TTimeKeyset {
  /** Rows strictly after the cursor's key in the walk's order; undefined on the first page. */
  after: SQL | undefined;
  orderBy: SQL[];
  /** Selected beside each row as text, so the next cursor holds the key to the microsecond. */
  key: SQL<string>;
}

function afterLast(key: SQL, id: AnyColumn, descending: boolean, last: SQL): SQL {
  return descending ? sql`(${key}, ${id}) < ${last}` : sql`(${key}, ${id}) > ${last}`;
}

/** A time keyset's cursor as the values of afterPlaceholders' placeholders. */
export function cursorKey(cursor: string, sort: string): { lastKey: string; lastId: string } {
  const [lastKey, lastId] = decodeCursor(cursor, sort, [TIMESTAMP_TEXT, UUID_TEXT]);
  return { lastKey: lastKey!, lastId: lastId! };
}

/**
 * timeKeyset's `after` through the placeholders `lastKey` and `lastId` (cursorKey), for a walk
 * whose statement is prepared once and run for every part after the first.
 */
export function afterPlaceholders(key: SQL, id: AnyColumn, descending: boolean): SQL {
  const last = sql`(${sql.placeholder('lastKey')}::timestamptz, ${sql.placeholder('lastId')}::uuid)`;
  return afterLast(key, id, descending, last);
}

export function timeKeyset(
  sort: string,
  key: SQL,
  id: AnyColumn,
  descending: boolean,
  cursor: string | undefined,
): TTimeKeyset {
  let after: SQL | undefined;
  if (cursor) {
    const { lastKey, lastId } = cursorKey(cursor, sort);
    after = afterLast(key, id, descending, sql`(${lastKey}::timestamptz, ${lastId}::uuid)`);
  }
  const direction = descending ? sql`desc` : sql`asc`;
  return {
    after,
    orderBy: [sql`${key} ${direction}`, sql`${id} ${direction}`],
    key: sql<string>`${key}::text`,
  };
}

/**
 * The page's rows and the cursor after them, from rows read one more than asked (the extra row
 * only tells that there is a next page).
 */
export function keysetPage<T extends { key: string }>(
  rows: T[],
  limit: number,
  sort: string,
  idOf: (row: T) => string,
): { rows: T[]; nextCursor: string | null } {
  if (rows.length <= limit) return { rows, nextCursor: null };
  const page = rows.slice(0, limit);
  const last = page[page.length - 1]!;
  return { rows: page, nextCursor: encodeCursor(sort, [last.key, idOf(last)]) };
}

/**
 * A whole list walked in parts of `limit` rows, each yielded before the next is read, so a
 * caller that maps each part never holds every row at once. `first` is the first part read one
 * row longer (as keysetPage wants); `readAfter` reads the next one the same way after a cursor.
 */
export async function* keysetParts<T extends { key: string }>(
  first: T[],
  walk: { limit: number; sort: string; idOf: (row: T) => string },
  readAfter: (cursor: string) => Promise<T[]>,
): AsyncGenerator<T[]> {
  let rows = first;
  for (;;) {
    const part = keysetPage(rows, walk.limit, walk.sort, walk.idOf);
    yield part.rows;
    if (!part.nextCursor) return;
    rows = await readAfter(part.nextCursor);
  }
}
