import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type { TDb } from './client';
import { MIGRATIONS_FOLDER } from './migrate';

/**
 * Every table's rows out of one database and into another, for `portico backup` and `restore`:
 * the tables are read from the catalog (so a table a later migration adds is copied without a
 * word here), in an order where a row's foreign keys land before it.
 */

type TTx = Parameters<Parameters<TDb['transaction']>[0]>[0];
type TRunner = TDb | TTx;

const PAGE_ROWS = 1000;

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** A catalog name as an SQL identifier. */
function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * Names in an order where every table comes after those it references (a reference to itself
 * does not count). Pure, so it is tested alone.
 */
export function referencesFirst(tables: string[], references: [string, string][]): string[] {
  const pending = new Map(tables.map((t) => [t, new Set<string>()]));
  for (const [from, to] of references) {
    if (from !== to && pending.has(to)) pending.get(from)?.add(to);
  }
  const ordered: string[] = [];
  while (pending.size > 0) {
    const ready = [...pending].filter(([, needs]) => needs.size === 0).map(([t]) => t);
    if (ready.length === 0) throw new Error(`tables reference each other: ${[...pending.keys()]}`);
    for (const table of ready.sort()) {
      ordered.push(table);
      pending.delete(table);
      for (const needs of pending.values()) needs.delete(table);
    }
  }
  return ordered;
}

/** The application's tables (schema public), references first. */
export async function publicTables(db: TRunner): Promise<string[]> {
  const tables = rowsOf<{ name: string }>(
    await db.execute(sql`select c.relname as name from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p')`),
  ).map((r) => r.name);
  const references = rowsOf<{ from: string; to: string }>(
    await db.execute(sql`select f.relname as "from", t.relname as "to" from pg_constraint k
      join pg_class f on f.oid = k.conrelid join pg_class t on t.oid = k.confrelid
      join pg_namespace n on n.oid = k.connamespace
      where k.contype = 'f' and n.nspname = 'public'`),
  ).map((r) => [r.from, r.to] as [string, string]);
  return referencesFirst(tables, references);
}

/** A table's rows as JSON texts, a page at a time, in storage order (ctid). */
export async function* tablePages(db: TRunner, table: string): AsyncGenerator<string[]> {
  let after = '(0,0)';
  for (;;) {
    const page = rowsOf<{ at: string; row: string }>(
      await db.execute(
        sql`select ctid::text as at, row_to_json(t)::text as row from ${sql.raw(ident(table))} t
          where ctid > ${after}::tid order by ctid limit ${PAGE_ROWS}`,
      ),
    );
    if (page.length === 0) return;
    yield page.map((r) => r.row);
    after = page.at(-1)!.at;
    if (page.length < PAGE_ROWS) return;
  }
}

/** A table's insertable column list (a generated column takes no value), as SQL. */
async function insertableColumns(tx: TRunner, table: string): Promise<string> {
  const columns = rowsOf<{ name: string }>(
    await tx.execute(sql`select column_name as name from information_schema.columns
      where table_schema = 'public' and table_name = ${table} and is_generated = 'NEVER'
      order by ordinal_position`),
  ).map((c) => ident(c.name));
  return columns.join(', ');
}

export type TInsertRows = (table: string, rows: string[]) => Promise<void>;

/**
 * Writes rows (JSON texts `tablePages` read) into their table through `tx`, ids as they were.
 * A generated column (proxy_configurations.search_text) is left out and computed again. Each
 * table's columns are asked of the catalog once, not once per page: a restore of 10,000 rows
 * in a table is ten pages.
 */
export function rowInserter(tx: TRunner): TInsertRows {
  const columnsOf = new Map<string, Promise<string>>();
  return async (table, rows) => {
    if (rows.length === 0) return;
    let columns = columnsOf.get(table);
    if (!columns) {
      columns = insertableColumns(tx, table);
      columnsOf.set(table, columns);
    }
    const name = sql.raw(ident(table));
    const list = sql.raw(await columns);
    await tx.execute(
      sql`insert into ${name} (${list}) overriding system value
        select ${list} from json_populate_recordset(null::${name}, ${`[${rows.join(',')}]`}::json)`,
    );
  };
}

/**
 * For the rest of the transaction, the answer_versions triggers (migration 0009) stay quiet: the
 * restored rows bring that table's own rows.
 */
export async function quietAnswerVersions(tx: TRunner): Promise<void> {
  await tx.execute(sql`set local portico.answer_versions = 'off'`);
}

/** Moves each identity or serial sequence of schema public past the largest id restored. */
export async function resetSequences(tx: TRunner): Promise<void> {
  const columns = rowsOf<{ table: string; column: string }>(
    await tx.execute(sql`select table_name as "table", column_name as "column"
      from information_schema.columns where table_schema = 'public'
      and (is_identity = 'YES' or column_default like 'nextval(%')`),
  );
  for (const { table, column } of columns) {
    await tx.execute(
      sql`select setval(pg_get_serial_sequence(${ident(table)}, ${column}),
        coalesce(max(${sql.raw(ident(column))}), 0) + 1, false) from ${sql.raw(ident(table))}`,
    );
  }
}

export interface TMigrationStep {
  hash: string;
  folderMillis: number;
  sql: string[];
}

/** The migrations this build ships, in order (drizzle's own reading of the folder). */
export function shippedMigrations(): TMigrationStep[] {
  return readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER });
}

/**
 * Applies `steps` inside the caller's transaction, recorded as drizzle's migrator records them
 * (so its later runs see them as applied): a restore creates the schema, fills it, and moves it
 * to this build's last migration in one transaction.
 */
export async function applyMigrationSteps(tx: TRunner, steps: TMigrationStep[]): Promise<void> {
  await tx.execute(sql`create schema if not exists drizzle`);
  await tx.execute(
    sql`create table if not exists drizzle.__drizzle_migrations
      (id serial primary key, hash text not null, created_at bigint)`,
  );
  for (const step of steps) {
    for (const statement of step.sql) await tx.execute(sql.raw(statement));
    await tx.execute(
      sql`insert into drizzle.__drizzle_migrations (hash, created_at)
        values (${step.hash}, ${step.folderMillis})`,
    );
  }
}

/** How many migrations the database has applied and the last one's hash (none: 0 and ''). */
export async function migrationState(
  db: TRunner,
): Promise<{ migrations: number; lastHash: string }> {
  const exists = rowsOf<{ found: string | null }>(
    await db.execute(sql`select to_regclass('drizzle.__drizzle_migrations')::text as found`),
  );
  if (!exists[0]?.found) return { migrations: 0, lastHash: '' };
  const [state] = rowsOf<{ n: number; last: string | null }>(
    await db.execute(sql`select count(*)::int as n,
      (select hash from drizzle.__drizzle_migrations order by created_at desc limit 1) as last
      from drizzle.__drizzle_migrations`),
  );
  return { migrations: state?.n ?? 0, lastHash: state?.last ?? '' };
}

/** Whether schema public holds any table: a database a restore may not fill without --replace. */
export async function holdsTables(db: TRunner): Promise<boolean> {
  return (await publicTables(db)).length > 0 || (await migrationState(db)).migrations > 0;
}

/** Empties a database for `restore --replace`: Portico's schemas dropped, public made anew. */
export async function dropPorticoSchemas(tx: TRunner): Promise<void> {
  await tx.execute(sql`drop schema if exists pgboss cascade`);
  await tx.execute(sql`drop schema if exists drizzle cascade`);
  await tx.execute(sql`drop schema if exists public cascade`);
  await tx.execute(sql`create schema public`);
}
