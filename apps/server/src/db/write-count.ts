import type { PGlite } from '@electric-sql/pglite';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { withOverrides } from './instance-proxy';
import * as schema from './schema';

/**
 * How many writes to Portico's own tables this process has started or finished, per table: two
 * equal readings for a set of tables mean that no write that may have changed one of them ran,
 * even in part, between them. On PGlite this process is the database's only writer (the
 * data-dir lock), so an answer made of those tables and read between two equal readings is
 * still what the database holds (plugins/answer-cache.ts).
 */
export interface TWriteCount {
  /** A reading for answers made of `tables` (and of whatever a write to them cascades to). */
  current(tables: readonly string[]): number;
}

// A plain read: SELECT without a locking clause. Anything else (INSERT, UPDATE, DELETE, a
// WITH that may hold one, DDL, several statements) is counted as a write; counting a read as
// a write only costs a cache miss, the other way round would serve a stale answer.
const PLAIN_READ = /^\s*select\b/i;
const LOCKING = /\bfor\s+(update|share|no\s+key\s+update|key\s+share)\b/i;
// One statement writing one table, as drizzle writes them: the table it names is the one it
// changes directly (a cascade or a trigger changes others: see `current`).
const ONE_TABLE = /^\s*(?:insert\s+into|update|delete\s+from)\s+"([a-z_]+)"\s/i;

export function isPlainRead(statement: string): boolean {
  return PLAIN_READ.test(statement) && !LOCKING.test(statement);
}

/**
 * Each table with the tables whose writes may change it too, from the schema's foreign keys: a
 * delete in `users` cascades to `proxy_configurations`, and from there to `deployments` and
 * `deployment_logs`.
 */
function cascadeSources(): Map<string, Set<string>> {
  const parents = new Map<string, Set<string>>();
  for (const table of Object.values(schema)) {
    if (!(table instanceof PgTable)) continue;
    const config = getTableConfig(table);
    const own = parents.get(config.name) ?? new Set<string>();
    parents.set(config.name, own);
    for (const key of config.foreignKeys) {
      const acts = (action: string | undefined) => action !== undefined && action !== 'no action';
      if (acts(key.onDelete) || acts(key.onUpdate)) {
        own.add(getTableConfig(key.reference().foreignTable).name);
      }
    }
  }
  const closed = new Map<string, Set<string>>();
  const close = (name: string, into: Set<string>) => {
    if (into.has(name)) return;
    into.add(name);
    for (const parent of parents.get(name) ?? []) close(parent, into);
  };
  for (const name of parents.keys()) {
    const all = new Set<string>();
    close(name, all);
    closed.set(name, all);
  }
  return closed;
}

/** The table a statement writes when it is a single drizzle insert, update or delete. */
export function writtenTable(statement: string): string | undefined {
  if (statement.includes(';')) return undefined;
  return ONE_TABLE.exec(statement)?.[1]?.toLowerCase();
}

/**
 * The PGlite instance as drizzle sees it, counting every statement that may write (before it
 * starts and after it ends): against its table when it names one, else (a transaction, an
 * `exec`, anything else) against every table. pg-boss works on the instance itself: its own
 * schema holds nothing an answer is made of, and it polls every second.
 */
export function countingWrites(pglite: PGlite): { client: PGlite; writes: TWriteCount } {
  let anyTable = 0;
  const byTable = new Map<string, number>();
  const bump = (table: string | undefined) => {
    if (table === undefined) anyTable += 1;
    else byTable.set(table, (byTable.get(table) ?? 0) + 1);
  };
  async function counted<T>(table: string | undefined, work: () => Promise<T>): Promise<T> {
    bump(table);
    try {
      return await work();
    } finally {
      bump(table);
    }
  }
  const wrapped: Record<PropertyKey, unknown> = {
    query: (text: string, ...rest: unknown[]) => {
      const run = () => (pglite.query as (...args: unknown[]) => Promise<unknown>)(text, ...rest);
      return isPlainRead(text) ? run() : counted(writtenTable(text), run);
    },
    exec: (...args: unknown[]) =>
      counted(undefined, () => (pglite.exec as (...a: unknown[]) => Promise<unknown>)(...args)),
    transaction: (...args: unknown[]) =>
      counted(undefined, () =>
        (pglite.transaction as (...a: unknown[]) => Promise<unknown>)(...args),
      ),
  };
  const client = withOverrides(pglite, wrapped);
  const sources = cascadeSources();
  // By the list itself: a route passes the same one on every request.
  const expanded = new WeakMap<readonly string[], string[]>();
  const sourcesOf = (tables: readonly string[]) => {
    let all = expanded.get(tables);
    if (!all) {
      const set = new Set<string>();
      for (const table of tables) {
        if (!sources.has(table)) throw new Error(`no table ${table} in the schema`);
        for (const source of sources.get(table)!) set.add(source);
      }
      all = [...set];
      expanded.set(tables, all);
    }
    return all;
  };
  return {
    client,
    writes: {
      // Counts only grow, so a sum moves whenever one of its terms does.
      current: (tables) => {
        let sum = anyTable;
        for (const table of sourcesOf(tables)) sum += byTable.get(table) ?? 0;
        return sum;
      },
    },
  };
}
