import { and, eq, getTableColumns, getTableName } from 'drizzle-orm';
import type { AnyPgColumn, PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { TDb } from './client';

/** One sealed value the key rotation moves to the new key: its row, as read, as written. */
export interface TReseal {
  id: string;
  previous: string;
  next: string;
}

/** A sealed column's compare-and-set, ready for its rows: `(id, previous, next)`. */
export type TResealer = (id: string, previous: string, next: string) => Promise<boolean>;

/**
 * The key rotation's compare-and-set, for every owner of a sealed column: `next` is written into
 * `sealed` of the row whose `idColumn` is `id` only if it still holds `previous` (so a value
 * changed since the rotation read it is never overwritten). True when the row moved. The column
 * is checked to be the table's once, when the resealer is made.
 */
export function resealer<TTable extends PgTable>(
  db: TDb,
  table: TTable,
  idColumn: AnyPgColumn,
  sealed: AnyPgColumn,
): TResealer {
  // .set() takes the column's property name, not the column.
  const field = Object.entries(getTableColumns(table)).find(([, column]) => column === sealed)?.[0];
  if (field === undefined) {
    throw new Error(`${sealed.name} is not a column of ${getTableName(table)}`);
  }
  return async (id, previous, next) => {
    const moved = await db
      .update(table)
      .set({ [field]: next } as PgUpdateSetSource<TTable>)
      .where(and(eq(idColumn, id), eq(sealed, previous)))
      .returning({ id: idColumn });
    return moved.length === 1;
  };
}

/** One compare-and-set (`resealer`), for a column known only per call. */
export async function resealWhereUnchanged<TTable extends PgTable>(
  db: TDb,
  table: TTable,
  idColumn: AnyPgColumn,
  sealed: AnyPgColumn,
  { id, previous, next }: TReseal,
): Promise<boolean> {
  return resealer(db, table, idColumn, sealed)(id, previous, next);
}
