// /api/ssh-servers on PGlite and PostgreSQL: secrets go in and never come out; other users'
// servers are 404 on every route; a refused key stores nothing, in the caller's language.
import { translate } from '@portico/shared/i18n/translate';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createProxy,
  signedInClient as signedInFrom,
} from '../../../test/support/proxies-test-helpers';
import {
  dsaKey,
  ed25519,
  KEY_PASSPHRASE,
  rsaPem,
  unsupportedTypeKey,
} from '../../../test/support/ssh-key-fixtures';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import { testDatabaseKinds } from '../../../test/support/test-database';
import { auditLog, proxyConfigurations, sshServers } from '../../db/schema';

const PASSWORD = 'Saved-Server-Pa55word';

// Each account from its own address: this file registers more than the register limit allows one.
let addresses = 0;
const signedInClient = (t: TTestApp, role: 'user' | 'admin' = 'user') =>
  signedInFrom(t, role, `198.18.${Math.floor(++addresses / 250)}.${addresses % 250}`);
const SUDO = 'Sudo-Pa55word-for-deploy';

describe.each(testDatabaseKinds())('saved SSH servers API on %s', (kind) => {
  let t: TTestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { deploy: { workers: 0 } });
  });
  afterAll(async () => t?.close());

  const base = { name: 'web-1', host: '203.0.113.20', username: 'deploy' };
  const rows = () => t.database.db.select().from(sshServers);

  it('saves a password server; the answer and the database hold no password in clear', async () => {
    const { client, user } = await signedInClient(t);
    const created = await client.write('POST', '/api/ssh-servers', { ...base, password: PASSWORD });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.body).not.toContain(PASSWORD);
    const server = created.json();
    expect(server).toMatchObject({
      ...base,
      port: 22,
      userId: user.id,
      owner: user.username,
      authKind: 'password',
      hasPassword: true,
      hasPrivateKey: false,
      publicKey: null,
      proxyCount: 0,
    });
    expect(Object.keys(server).some((k) => /enc$/i.test(k))).toBe(false);
    const [row] = await t.database.db.select().from(sshServers).where(eq(sshServers.id, server.id));
    expect(row!.passwordEnc).toBeTruthy();
    expect(JSON.stringify(row)).not.toContain(PASSWORD);
    const read = await client.request({ method: 'GET', url: `/api/ssh-servers/${server.id}` });
    expect(read.json()).toEqual(server);
    const list = await client.request({ method: 'GET', url: '/api/ssh-servers' });
    expect(list.json()).toEqual({ servers: [server], nextCursor: null });
  });

  it('generates a key: the answer carries the authorized_keys line, never the private key', async () => {
    const { client } = await signedInClient(t);
    const created = await client.write('POST', '/api/ssh-servers', {
      ...base,
      authKind: 'key',
      generateKey: true,
      sudoPassword: SUDO,
    });
    expect(created.statusCode, created.body).toBe(201);
    const server = created.json();
    expect(server).toMatchObject({ authKind: 'key', hasPrivateKey: true, hasSudoPassword: true });
    expect(server.publicKey).toMatch(/^ssh-ed25519 AAAAC3NzaC1lZDI1NTE5\S+ portico-[0-9a-f]{8}$/);
    expect(created.body).not.toMatch(/PRIVATE KEY|Sudo-Pa55word/);
    const [row] = await t.database.db.select().from(sshServers).where(eq(sshServers.id, server.id));
    expect(JSON.stringify(row)).not.toMatch(/PRIVATE KEY|Sudo-Pa55word/);
  });

  it('imports a passphrase-protected key, and a key pasted with CRLF and blank lines', async () => {
    const { client } = await signedInClient(t);
    const locked = ed25519(KEY_PASSPHRASE).privateKey;
    const created = await client.write('POST', '/api/ssh-servers', {
      ...base,
      authKind: 'key',
      privateKey: locked,
      passphrase: KEY_PASSPHRASE,
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      hasPrivateKey: true,
      hasPassphrase: true,
      publicKey: null,
    });
    expect(created.body).not.toContain(KEY_PASSPHRASE);
    const crlf = `\r\n\r\n${rsaPem().replace(/\n/g, '\r\n')}\r\n\r\n`;
    const pasted = await client.write('POST', '/api/ssh-servers', {
      ...base,
      authKind: 'key',
      privateKey: crlf,
    });
    expect(pasted.statusCode, pasted.body).toBe(201);
  });

  describe.each(['en', 'es'] as const)(
    'bad input in %s: a precise message, nothing stored',
    (lang) => {
      const plain = ed25519();
      const cases: [string, Record<string, unknown>, string][] = [
        ['a 1 MB paste', { privateKey: 'A'.repeat(1_000_000) }, 'sshKey.tooLarge'],
        ['a public key', { privateKey: plain.publicKey }, 'sshKey.publicKey'],
        [
          'a passphrase for an unencrypted key',
          { privateKey: plain.privateKey, passphrase: 'x' },
          'sshKey.passphraseNotNeeded',
        ],
        [
          'a wrong passphrase',
          { privateKey: ed25519(KEY_PASSPHRASE).privateKey, passphrase: 'wrong' },
          'sshKey.wrongPassphrase',
        ],
        ['an unsupported key type', { privateKey: unsupportedTypeKey() }, 'sshKey.unsupportedType'],
        ['a DSA key', { privateKey: dsaKey() }, 'sshKey.dsa'],
      ];
      it.each(cases)('%s', async (_what, fields, key) => {
        const { client } = await signedInClient(t);
        const before = (await rows()).length;
        const response = await client.write(
          'POST',
          '/api/ssh-servers',
          { ...base, authKind: 'key', ...fields },
          { 'accept-language': lang },
        );
        expect(response.statusCode, response.body).toBe(400);
        const body = JSON.stringify(response.json());
        expect(body).toContain(JSON.stringify(translate(lang, key)).slice(1, -1));
        expect(body).not.toContain('PRIVATE KEY');
        expect((await rows()).length).toBe(before);
      });
    },
  );

  it('answers 404 for another user’s server on every route', async () => {
    const { client: owner } = await signedInClient(t);
    const { client: other } = await signedInClient(t);
    const id = (
      await owner.write('POST', '/api/ssh-servers', { ...base, password: PASSWORD })
    ).json().id;
    expect((await other.request({ method: 'GET', url: `/api/ssh-servers/${id}` })).statusCode).toBe(
      404,
    );
    expect(
      (await other.write('PATCH', `/api/ssh-servers/${id}`, { name: 'mine' })).statusCode,
    ).toBe(404);
    expect((await other.write('DELETE', `/api/ssh-servers/${id}`)).statusCode).toBe(404);
    const list = await other.request({ method: 'GET', url: '/api/ssh-servers' });
    expect(list.json().servers).toEqual([]);
    expect(
      (await owner.request({ method: 'GET', url: `/api/ssh-servers/${id}` })).json().name,
    ).toBe('web-1');
  });

  it('an admin lists everyone’s with owners, reads no secret and cannot enter one', async () => {
    const { client: owner, user } = await signedInClient(t);
    const { client: admin } = await signedInClient(t, 'admin');
    const id = (
      await owner.write('POST', '/api/ssh-servers', { ...base, password: PASSWORD })
    ).json().id;
    const list = await admin.request({ method: 'GET', url: '/api/ssh-servers' });
    expect(list.body).not.toContain(PASSWORD);
    expect(list.json().servers.find((s: { id: string }) => s.id === id)).toMatchObject({
      owner: user.username,
      hasPassword: true,
    });
    const read = await admin.request({ method: 'GET', url: `/api/ssh-servers/${id}` });
    expect(read.statusCode).toBe(200);
    expect(read.body).not.toContain(PASSWORD);
    const [before] = await t.database.db.select().from(sshServers).where(eq(sshServers.id, id));
    const edit = await admin.write('PATCH', `/api/ssh-servers/${id}`, {
      password: 'admin-typed-pw',
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const [after] = await t.database.db.select().from(sshServers).where(eq(sshServers.id, id));
    expect(after!.passwordEnc).toBe(before!.passwordEnc);
  });

  it('moving a server elsewhere clears its secrets and, for another host, its pin; audited without values', async () => {
    const { client } = await signedInClient(t);
    const id = (
      await client.write('POST', '/api/ssh-servers', { ...base, password: PASSWORD })
    ).json().id;
    await t.database.db
      .update(sshServers)
      .set({ hostKeyFingerprint: 'SHA256:pin' })
      .where(eq(sshServers.id, id));
    const renamed = await client.write('PATCH', `/api/ssh-servers/${id}`, { name: 'web-one' });
    expect(renamed.json()).toMatchObject({
      name: 'web-one',
      hasPassword: true,
      hostKeyFingerprint: 'SHA256:pin',
    });
    const userMoved = await client.write('PATCH', `/api/ssh-servers/${id}`, { username: 'root' });
    expect(userMoved.json()).toMatchObject({
      hasPassword: false,
      hostKeyFingerprint: 'SHA256:pin',
    });
    const again = await client.write('PATCH', `/api/ssh-servers/${id}`, { password: PASSWORD });
    expect(again.json().hasPassword).toBe(true);
    const hostMoved = await client.write('PATCH', `/api/ssh-servers/${id}`, {
      host: '203.0.113.21',
    });
    expect(hostMoved.json()).toMatchObject({ hasPassword: false, hostKeyFingerprint: null });
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, id));
    expect(audit.map((a) => a.action).sort()).toEqual([
      'ssh_server.create',
      'ssh_server.update',
      'ssh_server.update',
      'ssh_server.update',
      'ssh_server.update',
    ]);
    expect(JSON.stringify(audit)).not.toContain(PASSWORD);
  });

  it('refuses to delete a server proxies use, saying how many; deletes it once none does', async () => {
    const { client } = await signedInClient(t);
    const id = (
      await client.write('POST', '/api/ssh-servers', { ...base, password: PASSWORD })
    ).json().id;
    const a = await createProxy(client);
    const b = await createProxy(client);
    await t.database.db
      .update(proxyConfigurations)
      .set({ sshServerId: id })
      .where(eq(proxyConfigurations.id, a.id));
    await t.database.db
      .update(proxyConfigurations)
      .set({ sshServerId: id })
      .where(eq(proxyConfigurations.id, b.id));
    const refused = await client.write('DELETE', `/api/ssh-servers/${id}`, undefined, {
      'accept-language': 'es',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'ssh_server_in_use',
      message: translate('es', 'errors.sshServerInUse', { count: 2 }),
    });
    await t.database.db
      .update(proxyConfigurations)
      .set({ sshServerId: null })
      .where(eq(proxyConfigurations.sshServerId, id));
    expect((await client.write('DELETE', `/api/ssh-servers/${id}`)).statusCode).toBe(200);
    expect(
      (await client.request({ method: 'GET', url: `/api/ssh-servers/${id}` })).statusCode,
    ).toBe(404);
  });

  it('a proxy on a saved server without a password of its own deploys with the server’s; not when the server is elsewhere', async () => {
    const { client } = await signedInClient(t);
    const proxy = await createProxy(client);
    const on = async (host: string) => {
      const server = await client.write('POST', '/api/ssh-servers', {
        name: host,
        host,
        username: 'root',
        password: PASSWORD,
      });
      await t.database.db
        .update(proxyConfigurations)
        .set({ sshServerId: server.json().id, sshPasswordEnc: null, sshPasswordTarget: null })
        .where(eq(proxyConfigurations.id, proxy.id));
    };
    await on('203.0.113.99');
    const refused = await client.write('POST', `/api/deploy/${proxy.id}`);
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().code).toBe('deploy_needs_password');
    await on(proxy.input.serverIp);
    const started = await client.write('POST', `/api/deploy/${proxy.id}`);
    expect(started.statusCode, started.body).toBe(202);
  });

  it('refuses mixed credentials in the request itself', async () => {
    const { client } = await signedInClient(t);
    const both = await client.write('POST', '/api/ssh-servers', {
      ...base,
      authKind: 'key',
      generateKey: true,
      privateKey: ed25519().privateKey,
    });
    expect(both.statusCode).toBe(400);
    expect(both.body).toContain(translate('en', 'sshKey.generateOrPaste'));
    const none = await client.write('POST', '/api/ssh-servers', { ...base, authKind: 'key' });
    expect(none.statusCode).toBe(400);
    expect(none.body).toContain(translate('en', 'sshKey.keyRequired'));
  });
});
