import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProxy, SSH_PASSWORD, signedInClient } from '../test/support/proxies-test-helpers';
import { runTs } from '../test/support/spawn';
import { removeTestTempDir, testTempDir } from '../test/support/temp-dir';
import { type TTestApp, withAppOnStore } from '../test/support/test-app';
import { TestClient } from '../test/support/test-client';
import {
  createTestDatabase,
  type TTestDatabase,
  testDatabaseKinds,
} from '../test/support/test-database';
import { loadConfig } from './config';
import { proxyConfigurations } from './db/schema';
import { acquireDataDirLock } from './lib/data-dir-lock';
import { decryptSecret, secretAad } from './lib/secrets';
import { openStore } from './runtime';

describe('the portico command', () => {
  it('runs from source through bin/portico.js when there is no build', async () => {
    const result = await runTs('bin/portico.js', ['--help'], {
      env: { PORTICO_CLI_FROM_SOURCE: '1' },
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: portico');
    expect(result.stdout).toContain('user');
  });
});

// Each step spawns a process that opens the database: slow on a loaded machine.
describe.each(testDatabaseKinds())('portico CLI on %s', { timeout: 120_000 }, (kind) => {
  const dataDir = testTempDir('portico-cli-');
  let pg: TTestDatabase | undefined;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    env = { PORTICO_DATA_DIR: dataDir, LANG: 'C' };
    if (kind === 'postgres') {
      pg = await createTestDatabase('postgres');
      env.DATABASE_URL = pg.url;
    }
  });
  afterAll(async () => {
    await pg?.drop();
    removeTestTempDir(dataDir);
  });

  const cli = (args: string[], input?: string) => runTs('src/cli.ts', args, { env, input });

  const withApp = <T>(work: (t: TTestApp) => Promise<T>) => withAppOnStore(env, work);

  /** Signs in through the real app on the same store, as a browser would. */
  const canLogIn = (identifier: string, password: string) =>
    withApp(async ({ app }) => (await new TestClient(app).login(identifier, password)).statusCode);

  it('creates an admin with the password from stdin and lists it', async () => {
    const created = await cli(
      ['user', 'create', 'root_admin', '--email', 'Root@Example.test', '--admin'],
      'Admin1234\n',
    );
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    expect(created.stdout).toContain('created admin root_admin <root@example.test>');
    const list = await cli(['user', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^USERNAME\s+EMAIL\s+ROLE\s+CREATED$/m);
    expect(list.stdout).toMatch(/^root_admin\s+root@example\.test\s+admin\s+\d{4}-/m);
    expect(list.stdout).not.toContain('argon2');
    expect(await canLogIn('root_admin', 'Admin1234')).toBe(200);
  });

  it('refuses a weak password and a taken name with readable messages', async () => {
    const weak = await cli(['user', 'create', 'weakling', '--email', 'w@example.test'], 'short\n');
    expect(weak.code).toBe(1);
    expect(weak.stderr).toContain('password: Password must be at least 8 characters long');
    const taken = await cli(
      ['user', 'create', 'ROOT_ADMIN', '--email', 'x@example.test'],
      'Admin1234\n',
    );
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('That username is already taken');
  });

  it('promotes and demotes', async () => {
    await cli(['user', 'create', 'plain_user', '--email', 'plain@example.test'], 'Plain1234\n');
    const promoted = await cli(['user', 'promote', 'plain_user']);
    expect(promoted.stdout).toContain('plain_user is now an administrator');
    expect((await cli(['user', 'list'])).stdout).toMatch(/^plain_user\s+\S+\s+admin/m);
    const demoted = await cli(['user', 'demote', 'plain_user']);
    expect(demoted.stdout).toContain('plain_user is no longer an administrator');
    expect((await cli(['user', 'list'])).stdout).toMatch(/^plain_user\s+\S+\s+user/m);
    const missing = await cli(['user', 'promote', 'ghost_user']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('The requested resource was not found.');
  });

  it('resets a password, after which the new one signs in and the old one does not', async () => {
    await cli(['user', 'create', 'forgetful', '--email', 'f@example.test'], 'Before1234\n');
    const reset = await cli(['user', 'reset-password', 'forgetful'], 'After12345\n');
    expect(reset.code).toBe(0);
    expect(reset.stdout).toContain('password of forgetful changed');
    expect(await canLogIn('forgetful', 'After12345')).toBe(200);
    expect(await canLogIn('forgetful', 'Before1234')).toBe(401);
  });

  it('rotates the secret key: stored passwords read with the new key only', async () => {
    const keyFile = join(dataDir, 'secret.key');
    const id = await withApp(async (t) => {
      const { client } = await signedInClient(t);
      return (await createProxy(client)).id;
    });
    const oldKey = readFileSync(keyFile);
    const rotated = await cli(['secrets', 'rotate-key']);
    expect(rotated.stderr).toBe('');
    expect(rotated.code).toBe(0);
    // The proxy's own password and the copy its saved server keeps (a typed proxy saves one).
    expect(rotated.stdout).toMatch(/rotated 2 secret\(s\) now use the new key/);
    expect(rotated.stdout).toContain(`${keyFile}.previous`);
    expect(readFileSync(`${keyFile}.previous`).equals(oldKey)).toBe(true);

    const after = await openStore(loadConfig(env));
    try {
      const [row] = await after.database.db
        .select({ enc: proxyConfigurations.sshPasswordEnc })
        .from(proxyConfigurations)
        .where(eq(proxyConfigurations.id, id));
      const aad = secretAad('proxy', id, 'sshPassword');
      expect(decryptSecret(readFileSync(keyFile), row!.enc!, aad)).toBe(SSH_PASSWORD);
      expect(() => decryptSecret(oldKey, row!.enc!, aad)).toThrow();
    } finally {
      await after.close();
    }
  });

  it('refuses politely while a server holds the data dir (PGlite only)', async () => {
    const lock = acquireDataDirLock(dataDir);
    try {
      const result = await cli(['user', 'list']);
      if (kind === 'pglite') {
        expect(result.code).toBe(1);
        expect(result.stderr).toContain(`The Portico server (pid ${process.pid}) is running`);
        expect(result.stderr).toContain('stop the server');
      } else {
        expect(result.code).toBe(0);
      }
    } finally {
      lock.release();
    }
  });
});
