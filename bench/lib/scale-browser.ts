import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from '@playwright/test';
import { openDatabase } from '../../apps/server/src/db/client';
import { proxyConfigurations, users } from '../../apps/server/src/db/schema';
import { CHROMIUM_LAUNCH, chromiumUnavailable } from '../../e2e/fixtures/chromium';
import type { TFigure } from '../run';
import { BUILT_MAIN, buildServer } from './built';
import { median } from './landing';
import { REPO_ROOT, startServer } from './process';

// Issue 38's browser figures: N proxies of one user, Portico built and started as `npm start`
// does (the bundle on plain node, PGlite), then Debian's chromium signs in through the landing form and waits for home's
// first card. Median of three cold visits; DOM nodes and the JS heap (after a collection) at
// that moment. The proxies go straight into the data dir while Portico is stopped (PGlite has
// one writer).

const VISITS = 3;
const PASSWORD = 'Scale-Bench-Pa55word';
const MiB = 1024 * 1024;

export const scaleBrowserUnavailable = chromiumUnavailable;

function buildWeb(): void {
  // The same lock as the browser tier: two checkouts never build at the same time here.
  execFileSync('flock', ['/tmp/portico-build.lock', 'npm', 'run', 'build', '-w', '@portico/web'], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function seeded(n: number, dataDir: string): Promise<string> {
  const env = { LOG_LEVEL: 'warn', DATABASE_URL: '', PORTICO_DATA_DIR: dataDir };
  const first = await startServer(BUILT_MAIN, env);
  const username = `scale${n}`;
  try {
    const csrf = await fetch(`${first.url}/api/csrf-token`);
    const cookie = csrf.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const { token } = (await csrf.json()) as { token: string };
    const registered = await fetch(`${first.url}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': token, cookie },
      body: JSON.stringify({ username, email: `${username}@example.com`, password: PASSWORD }),
    });
    if (registered.status !== 201) throw new Error(`register: ${registered.status}`);
  } finally {
    await first.stop();
  }
  // Where runtime.ts keeps the server's PGlite data dir.
  const database = await openDatabase({ pgliteDir: join(dataDir, 'db') });
  try {
    const [user] = await database.db.select({ id: users.id }).from(users);
    const start = Date.now() - n * 1000;
    for (let i = 0; i < n; i += 1000) {
      await database.db.insert(proxyConfigurations).values(
        Array.from({ length: Math.min(1000, n - i) }, (_, j) => ({
          userId: user!.id,
          domain: `b${n}-${i + j}.example.com`,
          serverIp: `203.0.113.${(i + j) % 250}`,
          email: 'owner@example.com',
          targetServer: `http://10.0.0.1:${3000 + ((i + j) % 1000)}`,
          createdAt: new Date(start + (i + j) * 1000),
        })),
      );
    }
  } finally {
    await database.close();
  }
  return username;
}

/** One cold visit: the landing form, signed in, until the first card shows. */
async function visit(browser: Browser, url: string, username: string) {
  const context = await browser.newContext({ locale: 'en-US' });
  try {
    const page = await context.newPage();
    await page.goto(`${url}/`);
    await page.getByTestId('tab-login').click();
    await page.locator('#login-identifier').fill(username);
    await page.locator('#login-password').fill(PASSWORD);
    const started = performance.now();
    await page.locator('#login-password').press('Enter');
    await page.getByTestId('proxy-card').first().waitFor({ timeout: 180_000 });
    const firstCardMs = performance.now() - started;
    const domNodes = await page.evaluate(() => document.getElementsByTagName('*').length);
    const cdp = await context.newCDPSession(page);
    await cdp.send('HeapProfiler.collectGarbage');
    const heap = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
    return { firstCardMs, domNodes, heapMiB: heap.usedSize / MiB };
  } finally {
    await context.close();
  }
}

/** The browser figures for each N, beside issue 38's goals. */
export async function scaleBrowserFigures(sizes: number[]): Promise<TFigure[]> {
  buildWeb();
  buildServer();
  const browser = await chromium.launch(CHROMIUM_LAUNCH);
  const figures: TFigure[] = [];
  let base: number | undefined;
  try {
    for (const n of sizes) {
      const dataDir = mkdtempSync(join(tmpdir(), 'portico-bench-scale-web-'));
      try {
        const username = await seeded(n, dataDir);
        const portico = await startServer(BUILT_MAIN, {
          LOG_LEVEL: 'warn',
          DATABASE_URL: '',
          PORTICO_DATA_DIR: dataDir,
        });
        try {
          const visits = [];
          for (let i = 0; i < VISITS; i++) visits.push(await visit(browser, portico.url, username));
          const firstCard = median(visits.map((v) => v.firstCardMs));
          base ??= firstCard;
          figures.push(
            {
              label: `N=${n} sign in → first card (median of ${VISITS})`,
              value: firstCard,
              floor: 0,
              unit: ' ms',
              goal: `goal ≤ 1500 ms and ≤ 1.5× N=${sizes[0]}: ${(1.5 * base).toFixed(0)} ms`,
            },
            {
              label: `N=${n} DOM nodes`,
              value: Math.max(...visits.map((v) => v.domNodes)),
              floor: 0,
              unit: '',
              goal: 'goal ≤ 5000',
            },
            {
              label: `N=${n} JS heap`,
              value: Math.max(...visits.map((v) => v.heapMiB)),
              floor: 0,
              unit: ' MiB',
              goal: 'goal ≤ 80 MiB',
            },
          );
        } finally {
          await portico.stop();
        }
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
  } finally {
    await browser.close();
  }
  return figures;
}
