// POST /api/test-ssh against a real sshd on 127.0.0.1 (key login only, so every password is
// refused), closed ports and silent listeners; on PGlite and on PostgreSQL when
// TEST_DATABASE_URL is set. Successful password logins are in test-ssh.lab.test.ts.
import { createServer, type Server } from 'node:net';
import { translate } from '@portico/shared/i18n/translate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startLocalSshd, type TLocalSshd } from '../../../test/peers/test-sshd';
import {
  insertConfiguration,
  signedInClient,
  sshCheckFailed,
  testSecretKeyFile,
  testSshBody,
} from '../../../test/support/ssh-test-fixtures';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import { TestClient } from '../../../test/support/test-client';
import { testDatabaseKinds } from '../../../test/support/test-database';

const PASSWORD = 'Sup3r-Secret-Pa55';
const OTHER_PIN = 'SHA256:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

let sshd: TLocalSshd;
let silent: Server;
let silentPort: number;
let notSsh: Server;
let notSshPort: number;

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
  });
}

beforeAll(async () => {
  sshd = await startLocalSshd();
  // Accepts and never says a word: the handshake runs into the 10 s limit.
  silent = createServer(() => {});
  silentPort = await listen(silent);
  // Speaks, but not SSH.
  notSsh = createServer((socket) => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n'));
  notSshPort = await listen(notSsh);
});
afterAll(async () => {
  await sshd?.stop();
  silent?.close();
  notSsh?.close();
});

describe.each(testDatabaseKinds())('POST /api/test-ssh on %s', (kind) => {
  let t: TTestApp;
  const keyFile = testSecretKeyFile();
  beforeAll(async () => {
    t = await createTestApp(kind, { config: { secretKeyFile: keyFile } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const body = (overrides: Record<string, unknown> = {}) =>
    testSshBody(sshd.port, PASSWORD, overrides);

  it('reports a refused login as authentication failed, without the password', async () => {
    const { client } = await signedInClient(t.app);
    const response = await client.write('POST', '/api/test-ssh', body());
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      connected: false,
      fingerprint: null,
      error: sshCheckFailed('en', 'checks.ssh.cause.authFailed'),
      // The same as a text, which a screen renders again in another language.
      text: { key: 'checks.ssh.failed', params: { cause: { key: 'checks.ssh.cause.authFailed' } } },
    });
    expect(response.body).not.toContain(PASSWORD);
  });

  it('answers in Spanish by default', async () => {
    const { client } = await signedInClient(t.app, 'es-ES,es;q=0.9');
    const response = await client.write('POST', '/api/test-ssh', body());
    expect(response.json().error).toBe(sshCheckFailed('es', 'checks.ssh.cause.authFailed'));
    expect(response.json().error).toMatch(/^La conexión SSH falló/);
  });

  it('reports a closed port as connection refused', async () => {
    const { client } = await signedInClient(t.app);
    const response = await client.write('POST', '/api/test-ssh', body({ port: await freePort() }));
    expect(response.json()).toEqual({
      connected: false,
      fingerprint: null,
      error: sshCheckFailed('en', 'checks.ssh.cause.refused'),
      text: { key: 'checks.ssh.failed', params: { cause: { key: 'checks.ssh.cause.refused' } } },
    });
  });

  it('reports something that is not an SSH server', async () => {
    const { client } = await signedInClient(t.app);
    const response = await client.write('POST', '/api/test-ssh', body({ port: notSshPort }));
    expect(response.json()).toEqual({
      connected: false,
      fingerprint: null,
      error: sshCheckFailed('en', 'checks.ssh.cause.protocol'),
      text: { key: 'checks.ssh.failed', params: { cause: { key: 'checks.ssh.cause.protocol' } } },
    });
  });

  it('gives up after 10 seconds when the server never answers', async () => {
    const { client } = await signedInClient(t.app);
    const response = await client.write('POST', '/api/test-ssh', body({ port: silentPort }));
    expect(response.json()).toEqual({
      connected: false,
      fingerprint: null,
      error: sshCheckFailed('en', 'checks.ssh.cause.timedOut'),
      text: { key: 'checks.ssh.failed', params: { cause: { key: 'checks.ssh.cause.timedOut' } } },
    });
  });

  it('reports a host key other than the pinned one, naming both fingerprints', async () => {
    const { client, userId } = await signedInClient(t.app);
    const configurationId = await insertConfiguration(t.database, keyFile, {
      userId,
      serverIp: '127.0.0.1',
      sshPort: sshd.port,
      sshUser: 'root',
      password: PASSWORD,
      hostKeyFingerprint: OTHER_PIN,
    });
    const response = await client.write('POST', '/api/test-ssh', body({ configurationId }));
    const error = response.json().error as string;
    expect(response.json().connected).toBe(false);
    expect(error).toBe(
      sshCheckFailed('en', 'checks.ssh.cause.hostKeyChanged', {
        expected: OTHER_PIN,
        actual: sshd.hostKeyFingerprint,
      }),
    );
    expect(error).toContain(OTHER_PIN);
    expect(error).toContain(sshd.hostKeyFingerprint);

    // The stored password is used when none is sent, and the pin still applies.
    const stored = await client.write(
      'POST',
      '/api/test-ssh',
      body({ configurationId, password: undefined }),
    );
    expect(stored.json().error).toBe(error);
  });

  it('applies the pin only to the host it was taken from', async () => {
    const { client, userId } = await signedInClient(t.app);
    const configurationId = await insertConfiguration(t.database, keyFile, {
      userId,
      serverIp: '127.0.0.2',
      sshPort: sshd.port,
      sshUser: 'root',
      password: PASSWORD,
      hostKeyFingerprint: OTHER_PIN,
    });
    const response = await client.write('POST', '/api/test-ssh', body({ configurationId }));
    expect(response.json().error).toBe(sshCheckFailed('en', 'checks.ssh.cause.authFailed'));
    // …and never sends the stored password to another host: a password is then required.
    const noPassword = await client.write(
      'POST',
      '/api/test-ssh',
      body({ configurationId, password: undefined }),
    );
    expect(noPassword.statusCode).toBe(400);
    expect(noPassword.json()).toMatchObject({
      code: 'password_required',
      message: translate('en', 'checks.ssh.passwordRequired'),
    });
  });

  it('answers 404 for another user configuration and 400 without any password', async () => {
    const owner = await signedInClient(t.app);
    const configurationId = await insertConfiguration(t.database, keyFile, {
      userId: owner.userId,
      serverIp: '127.0.0.1',
      sshPort: sshd.port,
      sshUser: 'root',
      password: PASSWORD,
    });
    const { client } = await signedInClient(t.app);
    const foreign = await client.write('POST', '/api/test-ssh', body({ configurationId }));
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe(translate('en', 'errors.notFound'));
    const missing = await client.write('POST', '/api/test-ssh', body({ password: undefined }));
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe(translate('en', 'checks.ssh.passwordRequired'));
  });

  it('validates the input with the validation rules and answers 401 when signed out', async () => {
    const { client } = await signedInClient(t.app);
    const bad = await client.write('POST', '/api/test-ssh', {
      serverIp: '1.2.3',
      username: '',
      port: 70000,
      password: '',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().issues).toEqual(
      expect.arrayContaining([
        { path: 'serverIp', message: 'Invalid IP address format' },
        { path: 'username', message: 'This field is required' },
        { path: 'port', message: 'Port must be at most 65535' },
        { path: 'password', message: 'This field is required' },
      ]),
    );
    expect(bad.body).not.toContain(PASSWORD);

    const anonymous = new TestClient(t.app, { headers: { 'accept-language': 'en' } });
    const response = await anonymous.write('POST', '/api/test-ssh', body());
    expect(response.statusCode).toBe(401);
  });

  it('never writes the password into a log line, even at trace level', async () => {
    const lines: string[] = [];
    const logged = await createTestApp(kind, {
      config: { secretKeyFile: keyFile },
      logger: { level: 'trace', stream: { write: (line: string) => lines.push(line) } },
    });
    try {
      const { client, userId } = await signedInClient(logged.app);
      const configurationId = await insertConfiguration(logged.database, keyFile, {
        userId,
        serverIp: '127.0.0.1',
        sshPort: sshd.port,
        sshUser: 'root',
        password: PASSWORD,
      });
      await client.write('POST', '/api/test-ssh', body());
      await client.write('POST', '/api/test-ssh', body({ configurationId, password: undefined }));
      await client.write('POST', '/api/test-ssh', body({ port: 0 }));
    } finally {
      await logged.close();
    }
    const text = lines.join('');
    expect(text).toContain('/api/test-ssh');
    expect(text).not.toContain(PASSWORD);
  });

  it('limits each user to 10 tests a minute (429 translated)', async () => {
    const { client } = await signedInClient(t.app, 'es');
    const port = await freePort();
    const statuses: number[] = [];
    let last: Awaited<ReturnType<TestClient['write']>> | undefined;
    for (let i = 0; i < 11; i++) {
      last = await client.write('POST', '/api/test-ssh', body({ serverIp: '127.0.0.3', port }));
      statuses.push(last.statusCode);
    }
    expect(statuses).toEqual([...Array(10).fill(200), 429]);
    expect(last!.json()).toMatchObject({
      code: 'rate_limited',
      message: translate('es', 'errors.rateLimited', { seconds: last!.headers['retry-after']! }),
    });
  });
});
