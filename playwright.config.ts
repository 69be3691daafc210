import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { CLOSED_PORT, CLOSED_URL, OPEN_PORT, OPEN_URL } from './e2e/fixtures/servers';

// The browser tier runs the built app (the same bundle `npm start` serves) on throwaway data
// dirs, in Debian's chromium: no browser is ever downloaded. Worker processes load this file
// again; the env variables make them reuse the dirs the main process made.
function dataDir(variable: string, prefix: string): string {
  const dir = process.env[variable] ?? mkdtempSync(join(tmpdir(), prefix));
  process.env[variable] = dir;
  return dir;
}
const openDataDir = dataDir('E2E_DATA_DIR', 'portico-e2e-');
const closedDataDir = dataDir('E2E_CLOSED_DATA_DIR', 'portico-e2e-closed-');

const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

// Blank DATABASE_URL: the browser tier always runs on embedded PGlite, whatever the shell holds.
const serverEnv = { HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATABASE_URL: '' };

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'artifacts/e2e-results',
  fullyParallel: false,
  workers: 1,
  forbidOnly: true,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['html', { outputFolder: 'artifacts/e2e-report', open: 'never' }]],
  use: {
    baseURL: OPEN_URL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: chromium,
  },
  projects: [
    {
      name: 'desktop',
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 1280, height: 800 },
        // A browser language Portico does not offer: the first visit shows the default (es).
        // Specs that test detection set their own locale.
        locale: 'fr-FR',
        launchOptions: chromium,
      },
    },
  ],
  // Started one after the other: the first builds, the second reuses that build.
  webServer: [
    {
      command: 'npm run build && node apps/server/dist/main.js',
      url: `${OPEN_URL}/readyz`,
      timeout: 240_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        ...serverEnv,
        PORT: String(OPEN_PORT),
        PORTICO_DATA_DIR: openDataDir,
        PORTICO_REGISTRATION: 'open',
      },
    },
    {
      command: 'node apps/server/dist/main.js',
      url: `${CLOSED_URL}/readyz`,
      timeout: 60_000,
      reuseExistingServer: false,
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
