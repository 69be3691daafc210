import { brotliCompressSync, constants } from 'node:zlib';
import { insertManyProxies } from '../apps/server/test/support/many-proxies';
import { ADMIN_VIEW_USERS, adminViewTimes } from './lib/scale-admin';
import { percentile, scaleApp, settled, signedIn, timed, touchProxies } from './lib/scale-app';
import { scaleBrowserFigures, scaleBrowserUnavailable } from './lib/scale-browser';
import { serverRss } from './lib/scale-rss';
import { watchPass } from './lib/scale-watch';
import type { TBenchmark, TFigure } from './run';

/**
 * Issue 38's costs at scale, for each N of BENCH_SCALE_N (default 100,1000,10000):
 * - one user's N proxies, in process (app.inject: the handler, the database and the serializer,
 *   no network) on an in-memory PGlite: the first page's p50/p99, a search's p99, the whole list's
 *   br size;
 * - the admin's views over N proxies spread over ADMIN_VIEW_USERS accounts: all proxies' first
 *   page p50/p99 and search p99, the users list's first page p99, the audit trail's first page
 *   p99 (one entry per proxy, each named);
 * - the built server's resident set, a real process on a PGlite data dir holding the N proxies,
 *   after it answered the whole list, pages and searches (lib/scale-rss.ts);
 * - one certificate-watch pass over N HTTPS sites, the real sweep and check against sites that
 *   answer (lib/scale-watch.ts).
 * Rows are inserted straight into the tables, 1,000 to a statement. The goals compare each size's
 * p99 with the first size's. Then the browser figures (lib/scale-browser.ts: chromium signs in
 * on a built Portico holding N proxies), unless chromium is missing or BENCH_SCALE_BROWSER=0.
 * The 301st deploy is `npm run bench -- scale-lab` (lab only). BENCH_SCALE_SKIP=rss,watch
 * leaves out those parts.
 */
const SIZES = (process.env.BENCH_SCALE_N ?? '100,1000,10000').split(',').map(Number);
const SKIP = new Set((process.env.BENCH_SCALE_SKIP ?? '').split(',').filter(Boolean));
const RSS_GOAL_MIB = 300;

const ms = (label: string, value: number, goal?: string): TFigure => ({
  label,
  value,
  floor: 0,
  unit: ' ms',
  goal,
});

/** One user's N proxies: first page, search, whole list. */
async function oneUser(n: number) {
  const t = await scaleApp();
  try {
    const { user, get } = await signedIn(t);
    await insertManyProxies(t.database.db, user.id, n, { prefix: `s${process.pid}-${n}` });
    await settled(t);
    const first = () => get('/api/user/proxy-configurations?limit=50');
    const page = await timed(first);
    const written = await timed(first, touchProxies(t));
    // A new term each time, as a user types one: each finds one domain, and its counts are read.
    const search = await timed((i) =>
      get(`/api/user/proxy-configurations?limit=50&q=-${n - 1 - (i % n)}.example`),
    );
    const whole = await get('/api/user/proxy-configurations');
    const compressed = brotliCompressSync(whole.rawPayload, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 4 },
    }).length;
    return {
      pageP50: percentile(page, 50),
      pageP99: percentile(page, 99),
      writtenP99: percentile(written, 99),
      searchP50: percentile(search, 50),
      searchP99: percentile(search, 99),
      brKb: compressed / 1024,
      plainKb: whole.rawPayload.length / 1024,
    };
  } finally {
    await t.close();
  }
}

export const benchmark: TBenchmark = {
  name: `scale: N = ${SIZES.join(', ')} proxies of one user, and over ${ADMIN_VIEW_USERS} users for the admin (in process unless said)`,
  async run() {
    const figures: TFigure[] = [];
    let base:
      | {
          page: number;
          written: number;
          search: number;
          admin: number;
          adminWritten: number;
          adminSearch: number;
          users: number;
          audit: number;
        }
      | undefined;
    const goal = (first: number) => `goal ≤ 1.5× N=${SIZES[0]}: ${(1.5 * first).toFixed(1)} ms`;
    for (const n of SIZES) {
      const one = await oneUser(n);
      const admin = await adminViewTimes(n);
      base ??= {
        page: one.pageP99,
        written: one.writtenP99,
        search: one.searchP99,
        admin: admin.pageP99,
        adminWritten: admin.writtenP99,
        adminSearch: admin.searchP99,
        users: admin.usersP99,
        audit: admin.auditP99,
      };
      figures.push(
        ms(`N=${n} page p50`, one.pageP50),
        ms(`N=${n} page p99`, one.pageP99, goal(base.page)),
        ms(`N=${n} page p99 after a write`, one.writtenP99, goal(base.written)),
        ms(`N=${n} search p50`, one.searchP50),
        ms(`N=${n} search p99`, one.searchP99, goal(base.search)),
        {
          label: `N=${n} whole br`,
          value: one.brKb,
          floor: one.plainKb,
          unit: ' kB',
          goal: 'floor: the same list uncompressed',
        },
        ms(`N=${n} admin page p50`, admin.pageP50),
        ms(`N=${n} admin page p99`, admin.pageP99, goal(base.admin)),
        ms(`N=${n} admin page p99 after a write`, admin.writtenP99, goal(base.adminWritten)),
        ms(`N=${n} admin search p50`, admin.searchP50),
        ms(`N=${n} admin search p99`, admin.searchP99, goal(base.adminSearch)),
        ms(`N=${n} admin users p99`, admin.usersP99, goal(base.users)),
        ms(`N=${n} admin audit p99`, admin.auditP99, goal(base.audit)),
      );
      if (!SKIP.has('rss')) {
        const rss = await serverRss(n);
        figures.push(
          {
            label: `N=${n} server RSS`,
            value: rss.settled,
            floor: 0,
            unit: ' MiB',
            goal: `built server on PGlite, at rest after the reads; goal ≤ ${RSS_GOAL_MIB} MiB`,
          },
          {
            label: `N=${n} server peak`,
            value: rss.peak,
            floor: 0,
            unit: ' MiB',
            goal: `VmHWM, the user's and the admin's whole lists; goal ≤ ${RSS_GOAL_MIB} MiB`,
          },
        );
      }
      if (!SKIP.has('watch')) {
        const pass = await watchPass(n);
        figures.push(
          ms(
            `N=${n} watch pass`,
            pass.ms,
            `${pass.checked} checked, ${pass.failed} failed, ${pass.alerts} alerts; 4 at a time, ≤ 100 ms jitter each`,
          ),
          ms(
            `N=${n} watch CPU`,
            pass.cpuMs,
            "the pass's own CPU (the sites answer from another process)",
          ),
        );
      }
    }
    const skipBrowser = process.env.BENCH_SCALE_BROWSER === '0' || scaleBrowserUnavailable();
    if (skipBrowser) console.info(`  browser figures skipped: ${skipBrowser}`);
    else figures.push(...(await scaleBrowserFigures(SIZES)));
    return figures;
  },
};
