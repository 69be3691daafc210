import type { FastifyInstance } from 'fastify';
import { buildApp, type TAppOptions } from '../app';
import type { TDatabase } from '../db/client';
import { createTestDatabase, type TDatabaseKind } from './test-database';

export const TEST_SESSION_SECRET = 'test-session-secret-0123456789abcdef';

export interface TTestApp {
  app: FastifyInstance;
  database: TDatabase;
  close(): Promise<void>;
}

/** The real app on a fresh database; logs off, no web build unless asked. */
export async function createTestApp(
  kind: TDatabaseKind,
  overrides: Omit<Partial<TAppOptions>, 'config'> & {
    config?: Partial<TAppOptions['config']>;
  } = {},
): Promise<TTestApp> {
  const testDatabase = await createTestDatabase(kind);
  const app = await buildApp({
    logger: false,
    sessionSecret: TEST_SESSION_SECRET,
    webRoot: null,
    sessionSweepIntervalMs: 0,
    ...overrides,
    database: testDatabase.database,
    config: { registration: 'open', trustProxy: false, logLevel: 'silent', ...overrides.config },
  });
  await app.ready();
  return {
    app,
    database: testDatabase.database,
    close: async () => {
      await app.close();
      await testDatabase.drop();
    },
  };
}
