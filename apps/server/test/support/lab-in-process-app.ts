// Lab tests' Portico in the test process (not the tools' lab-app-helpers, which the bench and
// e2e tiers also load: this one needs the server test tier's setup).
import type { TLabStatus } from '../../../../testbed/src/lab';
import { buildApp, type TAppOptions } from '../../src/app';
import { TEST_APP_OPTIONS, type TTestApp } from './test-app';
import { createTestDatabase } from './test-database';

/**
 * Portico in this process on a fresh migrated PGlite (from the run's template, as the server
 * tier's), deploying to the lab's servers, listening on a free loopback port.
 */
export async function inProcessLabApp(
  status: TLabStatus,
  overrides: Partial<Omit<TAppOptions, 'database'>> = {},
): Promise<TTestApp & { base: string }> {
  const { database, drop } = await createTestDatabase('pglite');
  const app = await buildApp({
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
