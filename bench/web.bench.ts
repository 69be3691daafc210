import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM_LAUNCH, chromiumUnavailable } from '../e2e/fixtures/chromium';
import { bytesOnTheWire, landingSnapshot, median, type TVisit, visitLanding } from './lib/landing';
import { REPO_ROOT, startServer, type TServerProcess } from './lib/process';
import type { TBenchmark, TFigure } from './run';

/**
 * The landing page's first visit in Debian's chromium: JavaScript transferred (as Chromium gets
 * it, and as gzip for a client without brotli) and Largest Contentful Paint. Portico is built
 * (`vite build`, as `npm start` does) and served by the real server (src/main.ts through tsx,
 * PGlite). Floor: the same landing page text, captured from Portico's rendering, as static HTML
 * with the same CSS, served compressed by a bare Fastify process (web-floor-server.ts). Visits
 * alternate between the two, each in a fresh browser context (empty cache).
 */

const VISITS = 15;
const WEB_DIST = join(REPO_ROOT, 'apps/web/dist');
const kB = (bytes: number) => bytes / 1000;

function build(): void {
  // The same lock as the browser tier: two checkouts never build at the same time here.
  execFileSync('flock', ['/tmp/portico-build.lock', 'npm', 'run', 'build', '-w', '@portico/web'], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** The floor's files: the captured landing HTML, the build's stylesheet(s) and the icon. */
function floorDir(html: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'portico-bench-web-floor-'));
  writeFileSync(join(dir, 'index.html'), html);
  mkdirSync(join(dir, 'assets'));
  for (const name of readdirSync(join(WEB_DIST, 'assets')).filter((f) => f.endsWith('.css'))) {
    cpSync(join(WEB_DIST, 'assets', name), join(dir, 'assets', name));
  }
  cpSync(join(WEB_DIST, 'favicon.svg'), join(dir, 'favicon.svg'));
  return dir;
}

function describeVisits(who: string, visits: TVisit[]) {
  const lcp = visits.map((v) => v.lcpMs).sort((a, b) => a - b);
  const ms = (n: number) => n.toFixed(0);
  const assetsIn = median(visits.map((v) => v.assetsInMs));
  console.info(
    `  ${who}: LCP min/median/max ${ms(lcp[0]!)}/${ms(median(lcp))}/${ms(lcp.at(-1)!)} ms over ${visits.length} visits; last script or CSS in at ${ms(assetsIn)} ms (median)`,
  );
}

export const benchmark: TBenchmark = {
  name: `Landing page, first visit in chromium (${VISITS} visits each, cold cache)`,
  unavailable: chromiumUnavailable(),
  async run(): Promise<TFigure[]> {
    const busy = loadavg()[0]!.toFixed(1);
    console.info(`  ${availableParallelism()} cores, load average ${busy} before the run`);
    build();
    const dataDir = mkdtempSync(join(tmpdir(), 'portico-bench-web-'));
    const portico = await startServer('apps/server/src/main.ts', {
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      PORTICO_DATA_DIR: dataDir,
    });
    const browser = await chromium.launch(CHROMIUM_LAUNCH);
    let floorFiles: string | undefined;
    let floor: TServerProcess | undefined;
    try {
      floorFiles = floorDir(await landingSnapshot(browser, `${portico.url}/`));
      floor = await startServer('bench/web-floor-server.ts', { FLOOR_DIR: floorFiles });
      // One visit each first, not counted: both processes have served the page once.
      await visitLanding(browser, `${portico.url}/`);
      await visitLanding(browser, `${floor.url}/`);
      const app: TVisit[] = [];
      const bare: TVisit[] = [];
      for (let i = 0; i < VISITS; i++) {
        app.push(await visitLanding(browser, `${portico.url}/`));
        bare.push(await visitLanding(browser, `${floor.url}/`));
      }
      describeVisits('Portico', app);
      describeVisits('floor', bare);
      const first = app[0]!;
      const names = first.jsUrls.map((u) => new URL(u).pathname.replace('/assets/', ''));
      console.info(`  landing JavaScript: ${names.join(', ')}`);
      let gzipBytes = 0;
      for (const url of first.jsUrls) gzipBytes += await bytesOnTheWire(url, 'gzip');
      const wire = (v: TVisit) => v.jsBytes + v.cssBytes + v.htmlBytes;
      return [
        { label: 'JS (chromium)', value: kB(first.jsBytes), floor: 0, unit: ' kB' },
        {
          label: 'JS (gzip)',
          value: kB(gzipBytes),
          floor: 0,
          unit: ' kB',
          goal: 'goal ≤ 160 kB',
        },
        { label: 'HTML+CSS+JS', value: kB(wire(first)), floor: kB(wire(bare[0]!)), unit: ' kB' },
        {
          label: 'LCP median',
          value: median(app.map((v) => v.lcpMs)),
          floor: median(bare.map((v) => v.lcpMs)),
          unit: ' ms',
          goal: 'goal ≤ 500 ms',
        },
      ];
    } finally {
      await browser.close();
      await floor?.stop();
      await portico.stop();
      if (floorFiles) rmSync(floorFiles, { recursive: true, force: true });
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
};
