import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_LAUNCH, chromiumUnavailable } from './e2e/fixtures/chromium';
import { LAB_SPECS, POSTGRES_SPECS } from './e2e/fixtures/lab-specs';
import { CLOSED_PORT, CLOSED_URL, OPEN_PORT, OPEN_URL } from './e2e/fixtures/servers';
import { labUnavailableReason } from './testbed/src/prereqs';

const why = chromiumUnavailable();
if (why) {
  if (process.env.CI === 'true') throw new Error(`e2e: ${why}`);
  // Outside CI a tier that cannot run here says so in one line and does not fail the run.
  console.info(`e2e: skipped, ${why}`);
  process.exit(0);
}

// Specs on the lab (real test servers) need root and the lab's packages. Outside CI they are
// left out with one line; under CI=true they run and fail with the reason.
const labWhy = labUnavailableReason();
const skipLab = labWhy !== undefined && process.env.CI !== 'true';
if (skipLab && process.env.TEST_WORKER_INDEX === undefined) {
  console.info(`e2e: lab specs (${LAB_SPECS.join(', ')}) skipped, ${labWhy}`);
}
// Specs on PostgreSQL need TEST_DATABASE_URL (.ci/run starts PostgreSQL and sets it).
const skipPostgres = !process.env.TEST_DATABASE_URL;
if (skipPostgres && process.env.TEST_WORKER_INDEX === undefined) {
  console.info(
    `e2e: PostgreSQL specs (${POSTGRES_SPECS.join(', ')}) skipped, TEST_DATABASE_URL is not set`,
  );
}

// The browser tier runs the built app (the same bundle `npm start` serves) on throwaway data
// dirs, in Debian's chromium: no browser is ever downloaded. Worker processes load this file
// again; the env variables make them reuse the dirs the main process made. The process that
// made a dir removes it when it exits (after the servers were stopped); a dir given through the
// variable is left alone.
function dataDir(variable: string, prefix: string): string {
  const given = process.env[variable];
  if (given) return given;
  const dir = mkdtempSync(join(tmpdir(), prefix));
  process.env[variable] = dir;
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
const openDataDir = dataDir('E2E_DATA_DIR', 'portico-e2e-');
const closedDataDir = dataDir('E2E_CLOSED_DATA_DIR', 'portico-e2e-closed-');

const chromium = CHROMIUM_LAUNCH;
const runSuffix = process.env.E2E_RUN_NAME ? `-${process.env.E2E_RUN_NAME}` : '';

const skipped = [...(skipLab ? LAB_SPECS : []), ...(skipPostgres ? POSTGRES_SPECS : [])];

const labWorkers = Number(process.env.E2E_LAB_WORKERS ?? 1);

const desktop = {
  ...devices['Desktop Chrome'],
  viewport: { width: 1280, height: 800 },
  // A browser language Portico does not offer: the first visit shows the default (es).
  // Specs that test detection set their own locale.
  locale: 'fr-FR',
  launchOptions: chromium,
};

// Blank DATABASE_URL: the browser tier always runs on embedded PGlite, whatever the shell holds.
const serverEnv = { HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATABASE_URL: '' };
// SIGTERM: the server closes the database and frees its data dir lock before the dir goes.
const gracefulShutdown = { signal: 'SIGTERM', timeout: 10_000 } as const;

export default defineConfig({
  testDir: 'e2e',
  globalSetup: './e2e/global-setup.ts',
  // E2E_RUN_NAME: two runs side by side (scripts/test-tiers.sh) keep their results apart.
  outputDir: `artifacts/e2e-results${runSuffix}`,
  fullyParallel: false,
  workers: 2,
  forbidOnly: true,
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 10_000 },
  reporter: [
    ['list'],
    ['./e2e/fixtures/failure-reporter.ts'],
    ['html', { outputFolder: `artifacts/e2e-report${runSuffix}`, open: 'never' }],
  ],
  use: {
    baseURL: OPEN_URL,
    // The trace's DOM snapshots and network log, without its screencast: a frame for every
    // paint cost the settings and admin specs 76 CPU-s against 66 on this 2-core machine, and the
    // failure screenshot and the page snapshot (failure-reporter.ts) still show the screen.
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    launchOptions: chromium,
  },
  // Two projects side by side, one worker each: the lab specs (one lab and its Portico, kept for
  // all three files) beside the rest (the shared servers on OPEN_PORT and CLOSED_PORT). Each
  // project still runs its files one at a time, so no spec sees another's users mid-test; the
  // two overlap their waiting (deploys on the lab, toasts and timers in the browser): 13.4 to
  // 11.9 minutes on this 2-core machine, where the lab's own work keeps both cores busy.
  // `npm test` (scripts/test-tiers.sh) runs each project on its own instead, each right after
  // its Vitest tier.
  // E2E_LAB_WORKERS (scripts/test-tiers.sh: 2): lab files at once, each worker with a lab and a
  // Portico of its own (fixtures/lab-app.ts).
  projects: [
    { name: 'lab', testMatch: LAB_SPECS, testIgnore: skipped, workers: labWorkers, use: desktop },
    { name: 'desktop', testIgnore: LAB_SPECS, workers: 1, use: desktop },
  ],
  // Started one after the other: the first builds, the second reuses that build.
  webServer: [
    {
      // flock: other checkouts' runs on this machine never build at the same time as this one.
      // E2E_BUILT (scripts/test-tiers.sh): built already, or being built under the lock now.
      command: process.env.E2E_BUILT
        ? 'flock /tmp/portico-build.lock true && node apps/server/dist/main.js'
        : 'flock /tmp/portico-build.lock npm run build && node apps/server/dist/main.js',
      url: `${OPEN_URL}/readyz`,
      timeout: 240_000,
      reuseExistingServer: false,
      gracefulShutdown,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        ...serverEnv,
        PORT: String(OPEN_PORT),
        PORTICO_DATA_DIR: openDataDir,
        PORTICO_REGISTRATION: 'open',
        // The specs register more accounts than one address may in ten minutes (20): the
        // fixture's registrations name an address of their own in X-Forwarded-For, which only
        // a proxy on 127.0.0.1 may set (e2e/fixtures/auth.ts).
        PORTICO_TRUST_PROXY: '127.0.0.1',
      },
    },
    {
      command: 'node apps/server/dist/main.js',
      url: `${CLOSED_URL}/readyz`,
      timeout: 60_000,
      reuseExistingServer: false,
      gracefulShutdown,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        ...serverEnv,
        PORT: String(CLOSED_PORT),
        PORTICO_DATA_DIR: closedDataDir,
        PORTICO_REGISTRATION: 'closed',
      },
    },
  ],
});
