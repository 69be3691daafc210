// An upgrade from the last release: a PGlite data dir and a PostgreSQL dump that release's code
// made (make-upgrade-fixture.ts) are opened with this code, migrated, and everything in them is
// still usable: the accounts sign in (two-factor too), the session and the API token still work,
// every proxy is listed and every stored secret decrypts to what was stored.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { postgresAdminQuery } from '../../../../testbed/src/postgres-admin';
import { loadConfig } from '../../src/config';
import { migrationsApplied } from '../../src/db/migrate';
import { auditLog } from '../../src/db/schema';
import { totpCode } from '../../src/lib/totp';
import { openStore, type TOpenedStore } from '../../src/runtime';
import { decryptedSecrets } from '../support/stored-secrets';
import { buildTestApp, TEST_APP_OPTIONS } from '../support/test-app';
import { TestClient } from '../support/test-client';
import { testDatabaseKinds } from '../support/test-database';
import { signInWithCode } from '../support/two-factor-test-helpers';

const FIXTURES = fileURLToPath(new URL('../fixtures/upgrade/', import.meta.url));
const RELEASES = ['2026-12-06-f05fdfa'];

interface TFixture {
  madeAt: string;
  auditActions: string[];
  users: { username: string; password: string; role: string; totpSecret?: string }[];
  token: string;
  session: { username: string; cookie: string };
  servers: { id: string; password?: string; sudoPassword?: string; publicKey?: string }[];
  proxies: { domain: string; sshPassword: string; owner: string }[];
}

/** The fixture's files laid out as that release left them: a data dir, and on PostgreSQL a database. */
async function unpack(release: string, kind: 'pglite' | 'postgres') {
  const from = join(FIXTURES, release, kind);
  const dataDir = mkdtempSync(join(tmpdir(), 'portico-upgrade-'));
  copyFileSync(join(from, 'secret.key'), join(dataDir, 'secret.key'));
  copyFileSync(join(from, 'session.secret'), join(dataDir, 'session.secret'));
  const env: NodeJS.ProcessEnv = { PORTICO_DATA_DIR: dataDir, LANG: 'C' };
  let dropDatabase = async () => {};
  if (kind === 'pglite') {
    execFileSync('tar', ['-xJf', join(from, 'db.tar.xz'), '-C', dataDir]);
  } else {
    const name = `portico_up_${randomBytes(6).toString('hex')}`;
    await postgresAdminQuery(`create database ${name}`);
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    execFileSync('psql', [
      '-v',
      'ON_ERROR_STOP=1',
      '-q',
      '-d',
      url.toString(),
      '-f',
      join(from, 'dump.sql'),
    ]);
    env.DATABASE_URL = url.toString();
    dropDatabase = () => postgresAdminQuery(`drop database if exists ${name} with (force)`);
  }
  const fixture = JSON.parse(readFileSync(join(from, 'fixture.json'), 'utf8')) as TFixture;
  return {
    env,
    dataDir,
    fixture,
    remove: async () => {
      await dropDatabase();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describe.each(
  RELEASES.flatMap((release) => testDatabaseKinds().map((kind) => [release, kind] as const)),
)('upgrade from %s on %s', (release, kind) => {
  let unpacked: Awaited<ReturnType<typeof unpack>>;
  let store: TOpenedStore;
  let app: Awaited<ReturnType<typeof buildTestApp>>;
  let auditBefore: string[];

  beforeAll(async () => {
    unpacked = await unpack(release, kind);
    // An hour after the release made it: its session (seven days) is still live, whatever today is.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse(unpacked.fixture.madeAt) + 3_600_000);
    const config = loadConfig(unpacked.env);
    store = await openStore(config);
    auditBefore = (await store.database.db.select({ action: auditLog.action }).from(auditLog))
      .map((row) => row.action)
      .sort();
    app = await buildTestApp({
      ...TEST_APP_OPTIONS,
      sessionSecret: readFileSync(join(unpacked.dataDir, 'session.secret'), 'utf8').trim(),
      database: store.database,
      config: { ...TEST_APP_OPTIONS.config, secretKeyFile: config.secretKeyFile },
      deploy: { workers: 0 },
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await store?.close();
    vi.useRealTimers();
    await unpacked?.remove();
  });

  it('applies every migration of this build and keeps the audit trail', async () => {
    expect(await migrationsApplied(store.database)).toBe(true);
    expect(auditBefore).toEqual(unpacked.fixture.auditActions);
  });

  it("keeps the release's session signed in", async () => {
    const me = await app.inject({
      method: 'GET',
      url: '/api/auth/user',
      headers: { cookie: unpacked.fixture.session.cookie },
    });
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json().username).toBe(unpacked.fixture.session.username);
  });

  it('signs every account in, the two-factor one with a code from its authenticator', async () => {
    for (const user of unpacked.fixture.users) {
      const client = new TestClient(app, { headers: { 'accept-language': 'en' } });
      const signedIn = user.totpSecret
        ? await signInWithCode(
            client,
            user.username,
            user.password,
            totpCode(user.totpSecret, Date.now()),
          )
        : await client.login(user.username, user.password);
      expect(signedIn.statusCode, signedIn.body).toBe(200);
      const me = await client.me();
      expect(me.json()).toMatchObject({ username: user.username, role: user.role });
      const mine = await client.request({ method: 'GET', url: '/api/user/proxy-configurations' });
      expect(mine.statusCode, mine.body).toBe(200);
      // Without paging parameters the list is the whole array.
      const domains = (mine.json() as { domain: string }[]).map(
        (p: { domain: string }) => p.domain,
      );
      expect(domains.sort()).toEqual(
        unpacked.fixture.proxies
          .filter((p) => p.owner === user.username)
          .map((p) => p.domain)
          .sort(),
      );
    }
  });

  it("accepts the release's API token", async () => {
    const listed = await app.inject({
      method: 'GET',
      url: '/api/ssh-servers',
      headers: { authorization: `Bearer ${unpacked.fixture.token}` },
    });
    expect(listed.statusCode, listed.body).toBe(200);
    const { servers } = listed.json();
    expect(servers.map((s: { id: string }) => s.id).sort()).toEqual(
      unpacked.fixture.servers.map((s) => s.id).sort(),
    );
    const key = unpacked.fixture.servers.find((s) => s.publicKey);
    expect(servers.find((s: { id: string }) => s.id === key?.id)?.publicKey).toBe(key?.publicKey);
  });

  it('decrypts every stored secret to what the release stored', async () => {
    const plain = await decryptedSecrets(store.database, join(unpacked.dataDir, 'secret.key'));
    const { fixture } = unpacked;
    const expected = [
      ...fixture.proxies.map((p) => p.sshPassword),
      ...fixture.users.flatMap((u) => (u.totpSecret ? [u.totpSecret] : [])),
      ...fixture.servers.flatMap((s) =>
        [s.password, s.sudoPassword].filter((v) => v !== undefined),
      ),
    ];
    // Besides these, the key server's private key: one more, an OpenSSH key.
    expect(plain.filter((p) => !p.includes('PRIVATE KEY')).sort()).toEqual(expected.sort());
    expect(plain.filter((p) => p.includes('BEGIN OPENSSH PRIVATE KEY'))).toHaveLength(1);
  });
});
