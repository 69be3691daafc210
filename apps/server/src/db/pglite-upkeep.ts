import { sql } from 'drizzle-orm';
import type { TDatabase } from './client';

/**
 * PGlite runs PostgreSQL in one process, single-user: there is no autovacuum. Its tables were
 * never analyzed, so the planner took 10,000 proxies for the 15 rows it assumes of a table it
 * knows nothing of and sorted them all for a page of 50 (instead of walking the keyset index),
 * and the rows every update leaves dead were never reclaimed. Upkeep does what autovacuum would,
 * with its default thresholds: ANALYZE a table once more than 50 + 10 % of its rows changed
 * since its last analyze, VACUUM it once more than 50 + 20 % of its rows are dead. PostgreSQL
 * itself runs autovacuum, so this is for PGlite only.
 */
export async function upkeep(database: Pick<TDatabase, 'db'>): Promise<string[]> {
  // Both drivers answer `execute` with the rows under `rows`.
  const stale = (await database.db.execute(sql`
    select format('%I.%I', schemaname, relname) as name,
      n_dead_tup > 50 + 0.2 * n_live_tup as vacuum
    from pg_stat_user_tables
    where n_mod_since_analyze > 50 + 0.1 * n_live_tup or n_dead_tup > 50 + 0.2 * n_live_tup
    order by 1`)) as unknown as { rows: { name: string; vacuum: boolean }[] };
  const done: string[] = [];
  for (const { name, vacuum } of stale.rows) {
    // `name` comes from the catalog, quoted by format('%I'): no value of a user is in it.
    await database.db.execute(sql.raw(`${vacuum ? 'vacuum (analyze)' : 'analyze'} ${name}`));
    done.push(name);
  }
  return done;
}

/** Autovacuum's own pause between looks. */
const UPKEEP_INTERVAL_MS = 60_000;

/** Upkeep now and then on PGlite (nothing on PostgreSQL); `stop` ends it. */
export function scheduleUpkeep(database: TDatabase, onError: (error: unknown) => void) {
  if (database.kind !== 'pglite') return { stop: () => {} };
  let running = false;
  const timer = setInterval(async () => {
    if (running) return;
    running = true;
    await upkeep(database).catch(onError);
    running = false;
  }, UPKEEP_INTERVAL_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
