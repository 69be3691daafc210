// POST /api/test-ssh against a lab test server (testbed/): real password logins over SSH, as
// root and as the sudo user, with typed and with stored (encrypted) passwords.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLab, type TLab, type TLabServer } from '../../../../../testbed/src/lab';
import {
  insertConfiguration,
  signedInClient,
  testSecretKeyFile,
} from '../../../test/support/ssh-test-fixtures';
import { buildTestApp, TEST_APP_OPTIONS } from '../../../test/support/test-app';
import { createTestDatabase } from '../../../test/support/test-database';
import type { TDatabase } from '../../db/client';

let lab: TLab;
let server: TLabServer;
let database: TDatabase;
let app: Awaited<ReturnType<typeof buildTestApp>>;
const keyFile = testSecretKeyFile();

const user = (name: 'root' | 'deploy') => server.users.find((u) => u.name === name)!;

beforeAll(async () => {
  lab = await startLab({ servers: 1 });
  server = lab.status.servers[0]!;
  database = (await createTestDatabase('pglite')).database;
  app = await buildTestApp({
    ...TEST_APP_OPTIONS,
    database,
    config: { ...TEST_APP_OPTIONS.config, secretKeyFile: keyFile },
  });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await database?.close();
  await lab?.stop();
});

describe('POST /api/test-ssh on a lab server', () => {
  it('logs in as root and as the sudo user, reporting the host key fingerprint', async () => {
    const { client } = await signedInClient(app);
    for (const name of ['root', 'deploy'] as const) {
      const response = await client.write('POST', '/api/test-ssh', {
        serverIp: server.address,
        username: name,
        password: user(name).password,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        connected: true,
        fingerprint: server.hostKeyFingerprint,
        error: null,
        text: null,
      });
      expect(response.body).not.toContain(user(name).password);
    }
  });

  it('refuses a wrong password with the uniform text and the cause', async () => {
    const { client } = await signedInClient(app);
    const response = await client.write('POST', '/api/test-ssh', {
      serverIp: server.address,
      username: 'root',
      password: 'not-the-password',
    });
    expect(response.json()).toEqual({
      connected: false,
      fingerprint: null,
      error: 'SSH connection failed: authentication failed (check the user name and password).',
      text: { key: 'checks.ssh.failed', params: { cause: { key: 'checks.ssh.cause.authFailed' } } },
    });
  });

  it('uses the stored password when resuming, with the pinned key', async () => {
    const { client, userId } = await signedInClient(app);
    const configurationId = await insertConfiguration(database, keyFile, {
      userId,
      serverIp: server.address,
      sshPort: server.sshPort,
      sshUser: 'root',
      password: user('root').password,
      hostKeyFingerprint: server.hostKeyFingerprint,
    });
    const response = await client.write('POST', '/api/test-ssh', {
      serverIp: server.address,
      username: 'root',
      configurationId,
    });
    expect(response.json()).toEqual({
      connected: true,
      fingerprint: server.hostKeyFingerprint,
      error: null,
      text: null,
    });
  });
});
