import { afterAll, beforeAll } from 'vitest';

import { openDatabase } from '../../src/db/client';
import { buildTestApp, type TTestAppOptions } from './test-app';
import { createTestDatabase, type TDatabaseKind, type TTestDatabase } from './test-database';

type TApp = Awaited<ReturnType<typeof buildTestApp>>;

/**
 * The app as every instance on one database runs it, for a test file: on PostgreSQL two, the
 * second on a pool of its own as a second process would have; on PGlite one (its data dir
 * belongs to one process). Made before the file's tests, closed and dropped after them.
 */
export function instancesOnOneDatabase(
  kind: TDatabaseKind,
  options: Omit<TTestAppOptions, 'database'>,
): { readonly apps: TApp[]; readonly testDb: TTestDatabase } {
  let testDb: TTestDatabase | undefined;
  const apps: TApp[] = [];
  const extra: { close(): Promise<void> }[] = [];
  beforeAll(async () => {
    testDb = await createTestDatabase(kind);
    apps.push(await buildTestApp({ ...options, database: testDb.database }));
    if (kind === 'postgres') {
      const second = await openDatabase({ databaseUrl: testDb.url!, poolSize: 4 });
      extra.push(second);
      apps.push(await buildTestApp({ ...options, database: second }));
    }
    await Promise.all(apps.map((app) => app.ready()));
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const database of extra) await database.close();
    await testDb?.drop();
  });
  return {
    apps,
    get testDb() {
      return testDb!;
    },
  };
}
