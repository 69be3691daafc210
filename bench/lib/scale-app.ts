import { LIMIT_DEFAULTS } from '@portico/shared/admin/limits';
import { eq, sql } from 'drizzle-orm';
import { buildApp } from '../../apps/server/src/app';
import { openDatabase, type TDatabase } from '../../apps/server/src/db/client';
import { runMigrations } from '../../apps/server/src/db/migrate';
import { upkeep } from '../../apps/server/src/db/pglite-upkeep';
import { users } from '../../apps/server/src/db/schema';
import { newCredentials, TestClient } from '../../apps/server/test/support/test-client';

/**
 * Requests timed per figure. At 200 the p99 was the second slowest, and the N=100 baseline moved
 * from 9 to 35 ms between two runs on a quiet machine; at 1,000 it is the tenth slowest.
 */
export const REQUESTS = 1000;
/** Untimed requests first: the route's first compilations and the database's first reads. */
const WARM_UP = 50;

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
}

/**
 * `run` REQUESTS times in a row after WARM_UP (given the request's number), each answer checked
 * for a 200; the times sorted (ms). `before`, untimed, runs before each.
 */
export async function timed(
  run: (i: number) => Promise<{ statusCode: number }>,
  before?: (i: number) => Promise<unknown>,
): Promise<number[]> {
  const once = async (i: number) => {
    await before?.(i);
    const started = performance.now();
    const response = await run(i);
    const took = performance.now() - started;
    if (response.statusCode !== 200) throw new Error(`answer ${response.statusCode}`);
    return took;
  };
  for (let i = 0; i < WARM_UP; i++) await once(i);
  const times: number[] = [];
  for (let i = 0; i < REQUESTS; i++) times.push(await once(WARM_UP + i));
  return times.sort((a, b) => a - b);
}

/**
 * An untimed write to the proxies' table, as an edit or a deploy makes: what the lists' kept
 * counts (db/kept-reads.ts) are read again after. One row's `updated_at`, nothing a list shows.
 */
export function touchProxies(t: Pick<TScaleApp, 'database'>) {
  return () =>
    t.database.db.execute(
      sql`update proxy_configurations set updated_at = updated_at where id = (select id from proxy_configurations limit 1)`,
    );
}

export interface TScaleApp {
  app: Awaited<ReturnType<typeof buildApp>>;
  database: TDatabase;
  close(): Promise<void>;
}

/**
 * The app as the tests build it on `pgliteDir` (a fresh in-memory PGlite unless told), answers
 * not checked beyond their status; `limits` raise the account limits a benchmark needs past.
 */
export async function scaleApp(
  pgliteDir = 'memory://',
  limits: Partial<Record<'proxies' | 'servers', number>> = {},
): Promise<TScaleApp> {
  const database = await openDatabase({ pgliteDir });
  await runMigrations(database);
  const app = await buildApp(
    {
      logger: false,
      sessionSecret: 'bench-session-secret-0123456789abcdef',
      webRoot: null,
      config: {
        registration: 'open',
        trustProxy: false,
        logLevel: 'silent',
        limits: { ...LIMIT_DEFAULTS, ...limits },
      },
      database,
    },
    { sessionSweepIntervalMs: 0 },
  );
  await app.ready();
  return {
    app,
    database,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

/** A registered, signed-in account (an admin made so before its first request reads it). */
export async function signedIn(t: TScaleApp, role: 'user' | 'admin' = 'user') {
  const client = new TestClient(t.app, { headers: { 'accept-language': 'en' } });
  const credentials = newCredentials(role);
  const user = (await client.register(credentials)).json().user as { id: string };
  if (role === 'admin') {
    await t.database.db.update(users).set({ role: 'admin' }).where(eq(users.id, user.id));
  }
  const get = (url: string) => client.request({ method: 'GET', url });
  return { client, user, credentials, get };
}

/**
 * After seeding: the upkeep a running server on PGlite does within its first minute
 * (db/pglite-upkeep.ts), run once now, so the figures are those of a server that has seen its
 * tables grow rather than of one that was handed them a moment ago.
 */
export async function settled(t: Pick<TScaleApp, 'database'>): Promise<void> {
  await t.database.db.execute(sql`select pg_stat_force_next_flush()`);
  await upkeep(t.database);
}
