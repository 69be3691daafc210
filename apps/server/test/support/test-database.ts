import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, inject } from 'vitest';
import { postgresAdminQuery } from '../../../../testbed/src/postgres-admin';
import { openDatabase, type TDatabase } from '../../src/db/client';
import { pgliteTemplateBlob, postgresTemplate } from './database-templates';

export type TDatabaseKind = 'pglite' | 'postgres';

/**
 * Where API suites run: PGlite always, PostgreSQL too when TEST_DATABASE_URL is set
 * (postgres://USER:PASSWORD@127.0.0.1:5432/DB, a role allowed to CREATE DATABASE).
 */
export function testDatabaseKinds(): TDatabaseKind[] {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

export interface TTestDatabase {
  database: TDatabase;
  /** The connection string of the per-file PostgreSQL database (undefined on PGlite). */
  url?: string;
  drop(): Promise<void>;
}

/**
 * A fresh, migrated database for one test file (empty with `migrated: false`), copied from the
 * run's template (global-setup.ts) rather than built from initdb and every migration.
 */
export async function createTestDatabase(
  kind: TDatabaseKind,
  { migrated = true }: { migrated?: boolean } = {},
): Promise<TTestDatabase> {
  if (kind === 'pglite') {
    const template = pgliteTemplateBlob(
      inject(migrated ? 'pgliteTemplate' : 'pgliteEmptyTemplate'),
    );
    const database = await openDatabase({ pgliteDir: 'memory://', pgliteTemplate: template });
    return { database, drop: () => database.close() };
  }
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set');
  const name = `portico_t_${randomBytes(6).toString('hex')}`;
  const template = migrated ? (inject('postgresTemplate') ?? (await postgresTemplate())) : null;
  await postgresAdminQuery(`create database ${name}${template ? ` template ${template}` : ''}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 4 });
  return {
    database,
    url: url.toString(),
    drop: async () => {
      await database.close();
      await postgresAdminQuery(`drop database if exists ${name} with (force)`);
    },
  };
}

/**
 * A migrated PostgreSQL database for a test file, and a second pool on it (as a second instance
 * would have): made before the file's tests, dropped after them.
 */
export function postgresWithSecondPool(): {
  readonly testDb: TTestDatabase;
  readonly second: TDatabase;
} {
  let testDb: TTestDatabase | undefined;
  let second: TDatabase | undefined;
  beforeAll(async () => {
    testDb = await createTestDatabase('postgres');
    second = await openDatabase({ databaseUrl: testDb.url!, poolSize: 4 });
  });
  afterAll(async () => {
    await second?.close();
    await testDb?.drop();
  });
  return {
    get testDb() {
      return testDb!;
    },
    get second() {
      return second!;
    },
  };
}
