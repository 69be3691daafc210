// Remakes an upgrade fixture: what a release leaves behind, made by that release's own code.
// Run it on the commit being released (never on a later one: the point is the older code):
//   TEST_DATABASE_URL=postgres://… npx jiti apps/server/test/upgrade/make-upgrade-fixture.ts <dir>
// (jiti, not tsx: under tsx ssh2's CommonJS exports miss their names and the key pair fails).
// It writes <dir>/pglite (the data dir's `db` folder, tarred) and <dir>/postgres (a plain SQL
// dump), each with the data dir's key files and fixture.json: what a test must find again.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { eq } from 'drizzle-orm';
import { postgresAdminQuery } from '../../../../testbed/src/postgres-admin';
import { loadConfig } from '../../src/config';
import { auditLog, users } from '../../src/db/schema';
import { loadOrCreateSessionSecret } from '../../src/lib/session-secret';
import { totpCode } from '../../src/lib/totp';
import { SESSION_COOKIE } from '../../src/modules/sessions/session-info';
import { openStore } from '../../src/runtime';
import { buildTestApp, TEST_APP_OPTIONS } from '../support/test-app';
import { TestClient } from '../support/test-client';

const ADMIN = { username: 'ada', email: 'ada@example.test', password: 'Fixture-Ada-1' };
const TWO_FACTOR = { username: 'bob', email: 'bob@example.test', password: 'Fixture-Bo-22' };
const SERVER_PASSWORD = 'Saved-Server-Pa55';
const SUDO_PASSWORD = 'Saved-Sudo-Pa55';
const PROXY_PASSWORDS = ['Proxy-One-Pa55', 'Proxy-Two-Pa55'];

async function expectStatus<T extends { statusCode: number; body: string }>(
  what: string,
  response: T,
  ok = 200,
): Promise<T> {
  if (response.statusCode !== ok)
    throw new Error(`${what}: ${response.statusCode} ${response.body}`);
  return response;
}

async function populate(env: NodeJS.ProcessEnv, dataDir: string) {
  const config = loadConfig(env);
  const store = await openStore(config);
  const sessionSecret = loadOrCreateSessionSecret(join(dataDir, 'session.secret'));
  const app = await buildTestApp({
    ...TEST_APP_OPTIONS,
    logger: process.env.FIXTURE_LOG === '1',
    sessionSecret,
    database: store.database,
    config: {
      ...TEST_APP_OPTIONS.config,
      secretKeyFile: config.secretKeyFile,
      logLevel: process.env.FIXTURE_LOG === '1' ? 'error' : 'silent',
    },
    deploy: { workers: 0 },
  });
  try {
    await app.ready();
    const ada = new TestClient(app, { headers: { 'accept-language': 'en' } });
    const adaUser = (await expectStatus('register ada', await ada.register(ADMIN), 201)).json()
      .user;
    await store.database.db.update(users).set({ role: 'admin' }).where(eq(users.id, adaUser.id));
    await expectStatus('ada signs in', await ada.login(ADMIN.username, ADMIN.password));
    const token = (
      await expectStatus(
        'token',
        await ada.write('POST', '/api/account/tokens', {
          name: 'fixture',
          scope: 'manage',
          expiresInDays: null,
          password: ADMIN.password,
        }),
        201,
      )
    ).json().token as string;
    const base = { host: '203.0.113.20', username: 'deploy' };
    const passwordServer = await expectStatus(
      'password server',
      await ada.write('POST', '/api/ssh-servers', {
        ...base,
        name: 'pw',
        password: SERVER_PASSWORD,
      }),
      201,
    );
    const keyServer = await expectStatus(
      'key server',
      await ada.write('POST', '/api/ssh-servers', {
        ...base,
        host: '203.0.113.21',
        name: 'key',
        authKind: 'key',
        generateKey: true,
        sudoPassword: SUDO_PASSWORD,
      }),
      201,
    );
    const proxies: { domain: string; sshPassword: string; owner: string }[] = [];
    for (const [i, sshPassword] of PROXY_PASSWORDS.entries()) {
      const domain = `site-${i + 1}.fixture.example.com`;
      await expectStatus(
        `proxy ${domain}`,
        await ada.write('POST', '/api/proxy-configurations', {
          serverIp: `203.0.113.${10 + i}`,
          domain,
          sshUser: 'root',
          sshPassword,
          email: 'admin@example.com',
          targetServer: 'http://10.0.0.5:8080',
        }),
      );
      proxies.push({ domain, sshPassword, owner: ADMIN.username });
    }

    const bo = new TestClient(app, { headers: { 'accept-language': 'es' } });
    await expectStatus('register bo', await bo.register(TWO_FACTOR), 201);
    const setup = await expectStatus(
      '2fa setup',
      await bo.write('POST', '/api/account/two-factor/setup'),
    );
    const totpSecret = setup.json().secret as string;
    await expectStatus(
      '2fa confirm',
      await bo.write('POST', '/api/account/two-factor/confirm', {
        code: totpCode(totpSecret, Date.now()),
      }),
    );
    const boDomain = 'bob.fixture.example.com';
    await expectStatus(
      `proxy ${boDomain}`,
      await bo.write('POST', '/api/proxy-configurations', {
        serverIp: '203.0.113.30',
        domain: boDomain,
        sshUser: 'root',
        sshPassword: 'Proxy-Bob-Pa55',
        email: 'bob@example.com',
        targetServer: 'http://10.0.0.6:8080',
      }),
    );
    proxies.push({ domain: boDomain, sshPassword: 'Proxy-Bob-Pa55', owner: TWO_FACTOR.username });
    const sessionCookie = ada.cookies.get(SESSION_COOKIE);
    if (!sessionCookie) throw new Error('ada holds no session cookie');
    const audit = await store.database.db.select({ action: auditLog.action }).from(auditLog);
    return {
      madeAt: new Date().toISOString(),
      auditActions: audit.map((row) => row.action).sort(),
      users: [
        { ...ADMIN, role: 'admin' },
        { ...TWO_FACTOR, role: 'user', totpSecret },
      ],
      token,
      session: { username: ADMIN.username, cookie: `${SESSION_COOKIE}=${sessionCookie}` },
      servers: [
        { id: passwordServer.json().id, name: 'pw', password: SERVER_PASSWORD },
        {
          id: keyServer.json().id,
          name: 'key',
          sudoPassword: SUDO_PASSWORD,
          publicKey: keyServer.json().publicKey,
        },
      ],
      proxies,
    };
  } finally {
    await app.close();
    await store.close();
  }
}

/** What both kinds keep beside the data: the data dir's two key files and what to find again. */
function writeKeysAndFacts(dataDir: string, out: string, facts: object) {
  copyFileSync(join(dataDir, 'secret.key'), join(out, 'secret.key'));
  copyFileSync(join(dataDir, 'session.secret'), join(out, 'session.secret'));
  const commit = execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  writeFileSync(join(out, 'fixture.json'), `${JSON.stringify({ commit, ...facts }, null, 2)}\n`);
}

async function makePglite(out: string) {
  const dataDir = mkdtempSync(join(tmpdir(), 'portico-fixture-'));
  try {
    const facts = await populate({ PORTICO_DATA_DIR: dataDir, LANG: 'C' }, dataDir);
    mkdirSync(out, { recursive: true });
    execFileSync('tar', ['-cJf', join(out, 'db.tar.xz'), '-C', dataDir, 'db']);
    writeKeysAndFacts(dataDir, out, facts);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function makePostgres(out: string) {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set: the PostgreSQL fixture needs a server');
  const name = `portico_fixture_${randomBytes(4).toString('hex')}`;
  await postgresAdminQuery(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'portico-fixture-'));
  try {
    const facts = await populate(
      { PORTICO_DATA_DIR: dataDir, DATABASE_URL: url.toString(), LANG: 'C' },
      dataDir,
    );
    mkdirSync(out, { recursive: true });
    const dump = execFileSync('pg_dump', ['--no-owner', '--no-privileges', url.toString()], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
    writeFileSync(join(out, 'dump.sql'), dump);
    writeKeysAndFacts(dataDir, out, facts);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    await postgresAdminQuery(`drop database if exists ${name} with (force)`);
  }
}

const target = process.argv[2];
if (!target) {
  console.error('usage: make-upgrade-fixture.ts <dir>');
  process.exit(2);
}
await makePglite(resolve(target, 'pglite'));
await makePostgres(resolve(target, 'postgres'));
console.info(`wrote ${resolve(target)}`);
