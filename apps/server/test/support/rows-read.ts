import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import type { TDatabase, TDb } from '../../src/db/client';
import { withOverrides } from '../../src/db/instance-proxy';
import * as schema from '../../src/db/schema';

/** One plan node of `EXPLAIN (ANALYZE, FORMAT JSON)`, the fields read here. */
interface TPlanNode {
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: TPlanNode[];
}

/** The rows each table's scans went through (returned or filtered out), per plan. */
function rowsReadOf(node: TPlanNode, into: Map<string, number>): Map<string, number> {
  const table = node['Relation Name'];
  if (table) {
    const perLoop =
      (node['Actual Rows'] ?? 0) +
      (node['Rows Removed by Filter'] ?? 0) +
      (node['Rows Removed by Index Recheck'] ?? 0);
    into.set(table, (into.get(table) ?? 0) + perLoop * (node['Actual Loops'] ?? 1));
  }
  for (const child of node.Plans ?? []) rowsReadOf(child, into);
  return into;
}

const PLAIN_SELECT = /^\s*select\b/i;

/**
 * A drizzle handle on `database` that, before each SELECT it is given, runs the same statement
 * with the same values under `EXPLAIN (ANALYZE, FORMAT JSON)` and adds up the rows each table's
 * scans went through. A read that goes through a whole table counts every row of it, whatever
 * it returns, so a background pass built over this handle shows whether it reads what it needs
 * or everything. The plan is the planner's own (run ANALYZE after seeding).
 */
export function rowsReadRecorder(database: TDatabase): {
  db: TDb;
  /** Rows read from `table` by every SELECT so far. */
  rowsRead(table: string): number;
  statements: string[];
} {
  const totals = new Map<string, number>();
  const statements: string[] = [];
  const explain = async (
    run: (text: string, params: unknown[]) => Promise<{ rows: unknown[] }>,
    text: string,
    params: unknown[],
  ) => {
    if (!PLAIN_SELECT.test(text)) return;
    statements.push(text);
    const { rows } = await run(`explain (analyze, format json) ${text}`, params);
    const cell = Object.values(rows[0] as object)[0] as unknown;
    const plans = (typeof cell === 'string' ? JSON.parse(cell) : cell) as { Plan: TPlanNode }[];
    for (const [table, count] of rowsReadOf(plans[0]!.Plan, new Map())) {
      totals.set(table, (totals.get(table) ?? 0) + count);
    }
  };
  let db: TDb;
  if (database.pglite) {
    const pglite = database.pglite;
    const query = pglite.query.bind(pglite) as (...a: unknown[]) => Promise<{ rows: unknown[] }>;
    const recording = withOverrides(pglite, {
      query: async (text: string, params: unknown[] = [], options?: unknown) => {
        await explain((t, p) => query(t, p), text, params);
        return query(text, params, options);
      },
    });
    db = drizzlePglite(recording, { schema }) as unknown as TDb;
  } else {
    const pool = database.pool!;
    const recording = withOverrides(pool, {
      query: async (config: string | { text: string }, params: unknown[] = []) => {
        const text = typeof config === 'string' ? config : config.text;
        await explain((t, p) => pool.query(t, p), text, params);
        return pool.query(config as never, params);
      },
    });
    db = drizzlePg(recording, { schema }) as unknown as TDb;
  }
  return { db, rowsRead: (table) => totals.get(table) ?? 0, statements };
}
