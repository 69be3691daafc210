// Key logins against a real throwaway sshd on 127.0.0.1 that refuses passwords
// (PasswordAuthentication no): a server saved through the API with a key Portico generated,
// whose public line is added to authorized_keys the way a user would, and one with an imported
// passphrase-protected key, each reached through the credentials service (POST /api/test-ssh of
// a proxy on that saved server, no credential typed); a key the server does not know is "the
// server refused this key", and a wrong passphrase is named as such, never the password failure.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalSshd, type TLocalSshd } from '../../../test/peers/test-sshd';
import { ed25519, KEY_PASSPHRASE } from '../../../test/support/ssh-key-fixtures';
import {
  insertConfiguration,
  signedInClient,
  sshCheckFailed,
  testSecretKeyFile,
} from '../../../test/support/ssh-test-fixtures';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import { testDatabaseKinds } from '../../../test/support/test-database';
import { proxyConfigurations } from '../../db/schema';
import { connectSsh, SshError } from '../../deploy/ssh';

let sshd: TLocalSshd;
beforeAll(async () => {
  sshd = await startLocalSshd();
});
afterAll(async () => {
  await sshd?.stop();
});

/** What a user does on the server with the line Portico shows. */
const authorize = (publicKey: string) =>
  appendFileSync(join(sshd.dir, 'authorized_keys'), `${publicKey}\n`);

describe('the SSH layer with keys', () => {
  it('tells a refused key and a wrong passphrase apart from a refused password', async () => {
    const where = { host: sshd.host, port: sshd.port, username: 'root', timeoutMs: 10_000 };
    const refused = await connectSsh({ ...where, privateKey: sshd.strangerKey }).catch((e) => e);
    expect(refused).toBeInstanceOf(SshError);
    expect(refused.code).toBe('key_refused');
    expect(refused.text).toMatchObject({ key: 'keyRefused' });
    const locked = ed25519(KEY_PASSPHRASE);
    authorize(locked.publicKey);
    const wrong = await connectSsh({
      ...where,
      privateKey: locked.privateKey,
      passphrase: 'no',
    }).catch((e) => e);
    expect(wrong.code).toBe('key_passphrase');
    const password = await connectSsh({ ...where, password: 'not-a-key' }).catch((e) => e);
    expect(password.code).toBe('auth_failed');
    const session = await connectSsh({
      ...where,
      privateKey: locked.privateKey,
      passphrase: KEY_PASSPHRASE,
    });
    expect(session.isRoot).toBe(true);
    session.close();
  });
});

describe.each(testDatabaseKinds())('saved servers logging in with keys on %s', (kind) => {
  let t: TTestApp;
  const keyFile = testSecretKeyFile();
  beforeAll(async () => {
    t = await createTestApp(kind, { config: { secretKeyFile: keyFile } });
  });
  afterAll(async () => t?.close());

  /** A proxy on the saved server, with no password of its own: only the server's key exists. */
  async function proxyOn(userId: string, serverId: string) {
    const id = await insertConfiguration(t.database, keyFile, {
      userId,
      serverIp: '127.0.0.1',
      sshPort: sshd.port,
      sshUser: 'root',
    });
    await t.database.db
      .update(proxyConfigurations)
      .set({ sshServerId: serverId })
      .where(eq(proxyConfigurations.id, id));
    return id;
  }

  async function testSsh(client: Awaited<ReturnType<typeof signedInClient>>['client'], id: string) {
    const response = await client.write('POST', '/api/test-ssh', {
      serverIp: '127.0.0.1',
      username: 'root',
      port: sshd.port,
      configurationId: id,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }

  const server = { name: 'keys', host: '127.0.0.1', username: 'root', authKind: 'key' };

  it('logs in with a generated key once its authorized_keys line is installed', async () => {
    const { client, userId } = await signedInClient(t.app);
    const created = await client.write('POST', '/api/ssh-servers', {
      ...server,
      port: sshd.port,
      generateKey: true,
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = await proxyOn(userId, created.json().id);
    // Not installed yet: the server refuses this key, in those words.
    expect(await testSsh(client, id)).toEqual({
      connected: false,
      fingerprint: null,
      error: sshCheckFailed('en', 'checks.ssh.cause.keyRefused'),
      text: { key: 'checks.ssh.failed', params: { cause: { key: 'checks.ssh.cause.keyRefused' } } },
    });
    authorize(created.json().publicKey);
    expect(await testSsh(client, id)).toEqual({
      connected: true,
      fingerprint: sshd.hostKeyFingerprint,
      error: null,
      text: null,
    });
  });

  it('logs in with an imported passphrase-protected key', async () => {
    const { client, userId } = await signedInClient(t.app, 'es');
    const locked = ed25519(KEY_PASSPHRASE);
    authorize(locked.publicKey);
    const created = await client.write('POST', '/api/ssh-servers', {
      ...server,
      port: sshd.port,
      privateKey: locked.privateKey,
      passphrase: KEY_PASSPHRASE,
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = await proxyOn(userId, created.json().id);
    expect(await testSsh(client, id)).toEqual({
      connected: true,
      fingerprint: sshd.hostKeyFingerprint,
      error: null,
      text: null,
    });
  });

  it('says "the server refused this key" for a key it does not know, in Spanish too', async () => {
    const { client, userId } = await signedInClient(t.app, 'es');
    const stranger = ed25519();
    const created = await client.write('POST', '/api/ssh-servers', {
      ...server,
      port: sshd.port,
      privateKey: stranger.privateKey,
    });
    const id = await proxyOn(userId, created.json().id);
    expect((await testSsh(client, id)).error).toBe(
      sshCheckFailed('es', 'checks.ssh.cause.keyRefused'),
    );
  });
});
