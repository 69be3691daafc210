import type { FastifyInstance } from 'fastify';
import { buildApp, type TAppOptions, type TAppOverrides } from '../../src/app';
import { loadConfig } from '../../src/config';
import type { TDatabase } from '../../src/db/client';
import { openStore } from '../../src/runtime';
import { createTestDatabase, type TDatabaseKind } from './test-database';

export const TEST_SESSION_SECRET = 'test-session-secret-0123456789abcdef';

/**
 * What every test app shares: logs off, no web build, no session sweep, registration open,
 * every answer checked against its schema, and SSH to 127.0.0.1 allowed (the throwaway sshd and
 * peers of the tests listen there; the refusal itself is tested with an app that does not allow it).
 */
/** The options a test app is built with: a Portico process's, and what only tests replace. */
export type TTestAppOptions = TAppOptions & TAppOverrides;

/** buildApp on one object holding both: each argument reads only its own fields. */
export const buildTestApp = (options: TTestAppOptions) => buildApp(options, options);

export const TEST_APP_OPTIONS = {
  logger: false,
  validateResponses: true,
  sessionSecret: TEST_SESSION_SECRET,
  webRoot: null,
  sessionSweepIntervalMs: 0,
  config: { registration: 'open', trustProxy: false, logLevel: 'silent', sshAllowLoopback: true },
} satisfies Omit<TTestAppOptions, 'database'>;

export interface TTestApp {
  app: FastifyInstance;
  database: TDatabase;
  close(): Promise<void>;
}

/** The real app on a fresh database; logs off, no web build unless asked. */
export async function createTestApp(
  kind: TDatabaseKind,
  overrides: Omit<Partial<TTestAppOptions>, 'config'> & {
    config?: Partial<TAppOptions['config']>;
  } = {},
): Promise<TTestApp> {
  const testDatabase = await createTestDatabase(kind);
  const app = await buildTestApp({
    ...TEST_APP_OPTIONS,
    ...overrides,
    database: testDatabase.database,
    config: { ...TEST_APP_OPTIONS.config, ...overrides.config },
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

/**
 * The real app on the store a Portico process would open with `env` (the CLI's data dir or
 * DATABASE_URL), for one step, then closed: PGlite's data-dir lock allows one process at a time,
 * so tests that run the real CLI in between use this.
 */
export async function withAppOnStore<T>(
  env: NodeJS.ProcessEnv,
  work: (t: TTestApp) => Promise<T>,
  overrides: Pick<Partial<TAppOptions>, 'logger'> = {},
): Promise<T> {
  const config = loadConfig(env);
  const store = await openStore(config);
  try {
    const app = await buildTestApp({
      ...TEST_APP_OPTIONS,
      database: store.database,
      config: { ...TEST_APP_OPTIONS.config, secretKeyFile: config.secretKeyFile },
      deploy: { workers: 0 },
      ...overrides,
    });
    try {
      return await work({ app, database: store.database, close: () => app.close() });
    } finally {
      await app.close();
    }
  } finally {
    await store.close();
  }
}
