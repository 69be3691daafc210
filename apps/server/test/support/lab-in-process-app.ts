// Lab tests' Portico in the test process (not the tools' lab-app-helpers, which the bench and
// e2e tiers also load: this one needs the server test tier's setup).
import type { TLabStatus } from '../../../../testbed/src/lab';

import { openDatabase } from '../../src/db/client';
import { runMigrations } from '../../src/db/migrate';
import { buildTestApp, TEST_APP_OPTIONS, type TTestApp, type TTestAppOptions } from './test-app';

/**
 * Portico in this process on a fresh migrated PGlite (the lab tier has no PGlite template: no
 * global setup), deploying to the lab's servers, listening on a free loopback port.
 */
export async function inProcessLabApp(
  status: TLabStatus,
  overrides: Partial<Omit<TTestAppOptions, 'database'>> = {},
): Promise<TTestApp & { base: string }> {
  const database = await openDatabase({ pgliteDir: 'memory://' });
  await runMigrations(database);
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
      await database.close();
    },
  };
}
