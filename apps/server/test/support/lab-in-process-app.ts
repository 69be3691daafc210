// Lab tests' Portico in the test process (not the tools' lab-app-helpers, which the bench and
// e2e tiers also load: this one needs the server test tier's setup).
import { afterAll, beforeAll } from 'vitest';
import type { TLab, TLabOptions, TLabServer, TLabStatus } from '../../../../testbed/src/lab';
import { labPerFile } from './lab-helpers';
import { buildTestApp, TEST_APP_OPTIONS, type TTestApp, type TTestAppOptions } from './test-app';
import { createTestDatabase } from './test-database';

/**
 * Portico in this process on a fresh migrated PGlite (from the run's template, as the server
 * tier's), deploying to the lab's servers, listening on a free loopback port.
 */
export type TLabAppOptions = Partial<Omit<TTestAppOptions, 'database'>>;

export async function inProcessLabApp(
  status: TLabStatus,
  overrides: TLabAppOptions = {},
): Promise<TTestApp & { base: string }> {
  const { database, drop } = await createTestDatabase('pglite');
  const app = await buildTestApp({
    ...TEST_APP_OPTIONS,
    ...overrides,
    config: { ...TEST_APP_OPTIONS.config, ...overrides.config },
    database,
    deploy: {
      settings: {
        acmeDirectoryUrl: status.acmeDirectoryUrl,
        extraCaFile: status.caRootPath,
        dnsServers: [status.dnsServer],
        ...overrides.deploy?.settings,
      },
    },
  });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    database,
    base,
    close: async () => {
      await app.close();
      await drop();
    },
  };
}

/**
 * One lab and one Portico on it for a whole test file: started before its tests, stopped after
 * them (a lab per test would cost the tier minutes). `appOptions` is given the started lab, for
 * what the app takes from it beyond its Pebble, CA and DNS (a CA file of the test's own, a clock).
 */
export function labAppPerFile(
  labOptions: TLabOptions,
  appOptions: (lab: TLab) => TLabAppOptions = () => ({}),
): { readonly lab: TLab; readonly s1: TLabServer; readonly t: TTestApp & { base: string } } {
  const run = labPerFile(labOptions);
  let t: (TTestApp & { base: string }) | undefined;
  // Registered after the lab's hooks: the app starts once the lab is up and closes before it stops.
  beforeAll(async () => {
    t = await inProcessLabApp(run.lab.status, appOptions(run.lab));
  });
  afterAll(async () => {
    await t?.close();
  });
  return {
    get lab() {
      return run.lab;
    },
    get s1() {
      return run.s1;
    },
    get t() {
      return t!;
    },
  };
}
