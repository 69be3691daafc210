import { brotliCompressSync, constants } from 'node:zlib';
import { buildApp } from '../apps/server/src/app';
import { openDatabase } from '../apps/server/src/db/client';
import { runMigrations } from '../apps/server/src/db/migrate';
import { proxyConfigurations } from '../apps/server/src/db/schema';
import { newCredentials, TestClient } from '../apps/server/test/support/test-client';
import { scaleBrowserFigures, scaleBrowserUnavailable } from './lib/scale-browser';
import type { TBenchmark, TFigure } from './run';

/**
 * Issue 38's lists at scale, in process (app.inject: the handler, the database and the
 * serializer, no network): N proxies of one user inserted straight into the table, then the
 * first page, a search and the whole list, on an in-memory PGlite. BENCH_SCALE_N picks the sizes (default 100,1000,10000); the goals compare each size's
 * p99 with the first size's. Then the browser figures (lib/scale-browser.ts: chromium signs in
 * on a built Portico holding N proxies), unless chromium is missing or BENCH_SCALE_BROWSER=0.
 * The 301st deploy is not measured here.
 */
const SIZES = (process.env.BENCH_SCALE_N ?? '100,1000,10000').split(',').map(Number);
const REQUESTS = 200;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
}

async function timed(run: () => Promise<{ statusCode: number }>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const started = performance.now();
    const response = await run();
    if (response.statusCode !== 200) throw new Error(`answer ${response.statusCode}`);
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

/** The app as the tests build it, on a fresh in-memory PGlite, answers not checked. */
async function scaleApp() {
  const database = await openDatabase({ pgliteDir: 'memory://' });
  await runMigrations(database);
  const app = await buildApp({
    logger: false,
    sessionSecret: 'bench-session-secret-0123456789abcdef',
    webRoot: null,
    sessionSweepIntervalMs: 0,
    config: { registration: 'open', trustProxy: false, logLevel: 'silent' },
    database,
  });
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

export const benchmark: TBenchmark = {
  name: `scale: one user's proxies, N = ${SIZES.join(', ')} (in process)`,
  async run() {
    const figures: TFigure[] = [];
    let base: { page: number; search: number } | undefined;
    for (const n of SIZES) {
      const t = await scaleApp();
      try {
        const client = new TestClient(t.app, { headers: { 'accept-language': 'en' } });
        const user = (await client.register(newCredentials('user'))).json().user as { id: string };
        const start = Date.now() - n * 1000;
        for (let i = 0; i < n; i += 1000) {
          await t.database.db.insert(proxyConfigurations).values(
            Array.from({ length: Math.min(1000, n - i) }, (_, j) => ({
              userId: user.id,
              domain: `s${process.pid}-${n}-${i + j}.example.com`,
              serverIp: `203.0.113.${(i + j) % 250}`,
              email: 'owner@example.com',
              targetServer: `http://10.0.0.1:${3000 + ((i + j) % 1000)}`,
              createdAt: new Date(start + (i + j) * 1000),
            })),
          );
        }
        const get = (url: string) => client.request({ method: 'GET', url });
        const page = await timed(() => get('/api/user/proxy-configurations?limit=50'));
        const search = await timed(() =>
          get(`/api/user/proxy-configurations?limit=50&q=${n - 7}.example`),
        );
        const whole = await get('/api/user/proxy-configurations');
        const compressed = brotliCompressSync(whole.rawPayload, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 4 },
        }).length;
        const p99 = { page: percentile(page, 99), search: percentile(search, 99) };
        base ??= p99;
        const goal = (first: number) => `goal ≤ 1.5× N=${SIZES[0]}: ${(1.5 * first).toFixed(1)} ms`;
        figures.push(
          { label: `N=${n} page p50`, value: percentile(page, 50), floor: 0, unit: ' ms' },
          {
            label: `N=${n} page p99`,
            value: p99.page,
            floor: 0,
            unit: ' ms',
            goal: goal(base.page),
          },
          {
            label: `N=${n} search p99`,
            value: p99.search,
            floor: 0,
            unit: ' ms',
            goal: goal(base.search),
          },
          {
            label: `N=${n} whole br`,
            value: compressed / 1024,
            floor: whole.rawPayload.length / 1024,
            unit: ' kB',
            goal: 'floor: the same list uncompressed',
          },
        );
      } finally {
        await t.close();
      }
    }
    const skipBrowser = process.env.BENCH_SCALE_BROWSER === '0' || scaleBrowserUnavailable();
    if (skipBrowser) console.info(`  browser figures skipped: ${skipBrowser}`);
    else figures.push(...(await scaleBrowserFigures(SIZES)));
    return figures;
  },
};
