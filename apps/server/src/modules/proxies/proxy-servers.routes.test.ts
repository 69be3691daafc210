// Proxies on saved SSH servers, on PGlite and PostgreSQL: chosen by id (no credential typed;
// another account's server is refused as one that does not exist), saved for reuse when typed
// with the spec's fields, moved by the edit dialog (secrets bound to the old target cleared), and
// the DNS check and SSH test naming a saved server.
import { LIMIT_DEFAULTS } from '@portico/shared/admin/limits';
import { translate } from '@portico/shared/i18n/translate';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  proxyInput,
  SSH_PASSWORD,
  signedInClient as signedInFrom,
} from '../../../test/support/proxies-test-helpers';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import type { TestClient } from '../../../test/support/test-client';
import { testDatabaseKinds } from '../../../test/support/test-database';
import { auditLog, proxyConfigurations, sshServers } from '../../db/schema';

const SERVER_PASSWORD = 'Saved-Server-Pa55word';
const PIN = `SHA256:${'p'.repeat(43)}`;
const MISSING = '00000000-0000-4000-8000-00000000dead';

let addresses = 0;
const signedInClient = (t: TTestApp, role: 'user' | 'admin' = 'user') =>
  signedInFrom(t, role, `198.19.${Math.floor(++addresses / 250)}.${addresses % 250}`);

describe.each(testDatabaseKinds())('proxies on saved SSH servers on %s', (kind) => {
  let t: TTestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, {
      deploy: { workers: 0 },
      config: { limits: { ...LIMIT_DEFAULTS, servers: 3 } },
    });
  });
  afterAll(async () => t?.close());

  const proxyRow = async (id: string) =>
    (
      await t.database.db.select().from(proxyConfigurations).where(eq(proxyConfigurations.id, id))
    )[0]!;
  const serversOf = (userId: string) =>
    t.database.db.select().from(sshServers).where(eq(sshServers.userId, userId));
  const read = async (client: TestClient, id: string) =>
    (await client.request({ method: 'GET', url: `/api/proxy-configurations/${id}` })).json();

  async function savedServer(client: TestClient, host: string, username = 'root') {
    const created = await client.write('POST', '/api/ssh-servers', {
      name: `${username}@${host}`,
      host,
      username,
      password: SERVER_PASSWORD,
    });
    expect(created.statusCode, created.body).toBe(201);
    return created.json() as { id: string; host: string };
  }

  /** The wizard's save with a saved server: no address, user or password. */
  const onServer = (sshServerId: string) => {
    const { serverIp: _ip, sshUser: _user, sshPassword: _pw, ...rest } = proxyInput();
    return { ...rest, sshServerId };
  };

  it('creates a proxy on a chosen saved server: its address, user and pin, no password of its own', async () => {
    const { client } = await signedInClient(t);
    const server = await savedServer(client, '203.0.113.40', 'deploy');
    await t.database.db
      .update(sshServers)
      .set({ hostKeyFingerprint: PIN, port: 2222 })
      .where(eq(sshServers.id, server.id));
    const created = await client.write('POST', '/api/proxy-configurations', onServer(server.id));
    expect(created.statusCode, created.body).toBe(200);
    const proxy = await read(client, created.json().id);
    expect(proxy).toMatchObject({
      serverIp: '203.0.113.40',
      sshPort: 2222,
      sshUser: 'deploy',
      sshServerId: server.id,
      hostKeyFingerprint: PIN,
      hasSshPassword: false,
      sshAuth: 'server',
    });
    const row = await proxyRow(proxy.id);
    expect(row.sshPasswordEnc).toBeNull();
    // The deploy start finds the server's credential for the proxy's target.
    const started = await client.write('POST', `/api/deploy/${proxy.id}`);
    expect(started.statusCode, started.body).toBe(202);
  });

  it('refuses another account’s server id exactly as one that does not exist, storing nothing', async () => {
    const { client: owner } = await signedInClient(t);
    const { client: other, user } = await signedInClient(t);
    const server = await savedServer(owner, '203.0.113.41');
    const before = await t.database.db
      .select()
      .from(proxyConfigurations)
      .where(eq(proxyConfigurations.userId, user.id));
    const foreign = await other.write('POST', '/api/proxy-configurations', onServer(server.id));
    const missing = await other.write('POST', '/api/proxy-configurations', onServer(MISSING));
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual(missing.json());
    expect(foreign.body).not.toContain('203.0.113.41');
    for (const [url, body] of [
      ['/api/validate-dns', { domain: 'a.example.com', sshServerId: server.id }],
      ['/api/test-ssh', { sshServerId: server.id }],
    ] as const) {
      const answer = await other.write('POST', url, body);
      expect(answer.statusCode, url).toBe(404);
      expect(answer.body).not.toContain('203.0.113.41');
    }
    const after = await t.database.db
      .select()
      .from(proxyConfigurations)
      .where(eq(proxyConfigurations.userId, user.id));
    expect(after).toEqual(before);
  });

  describe.each(['en', 'es'] as const)(
    'a saved server and typed fields together, in %s',
    (lang) => {
      it('is refused with words naming the choice, nothing stored', async () => {
        const { client, user } = await signedInClient(t);
        const server = await savedServer(client, '203.0.113.42');
        const both = await client.write(
          'POST',
          '/api/proxy-configurations',
          { ...proxyInput(), sshServerId: server.id },
          { 'accept-language': lang },
        );
        expect(both.statusCode).toBe(400);
        expect(both.body).toContain(translate(lang, 'validation.sshServer.either'));
        const none = await client.write(
          'POST',
          '/api/proxy-configurations',
          { ...onServer(server.id), sshServerId: undefined },
          { 'accept-language': lang },
        );
        expect(none.statusCode).toBe(400);
        const rows = await t.database.db
          .select()
          .from(proxyConfigurations)
          .where(eq(proxyConfigurations.userId, user.id));
        expect(rows).toEqual([]);
      });
    },
  );

  it('a proxy typed with the spec’s fields saves its server for reuse; the next one joins it; past the limit none is saved', async () => {
    const { client, user } = await signedInClient(t);
    const first = await client.write('POST', '/api/proxy-configurations', proxyInput());
    expect(first.statusCode, first.body).toBe(200);
    const [server] = await serversOf(user.id);
    expect(server).toMatchObject({
      name: 'root@203.0.113.10',
      host: '203.0.113.10',
      port: 22,
      username: 'root',
      authKind: 'password',
    });
    expect(server!.passwordEnc).toBeTruthy();
    expect(JSON.stringify(server)).not.toContain(SSH_PASSWORD);
    expect(await read(client, first.json().id)).toMatchObject({
      sshServerId: server!.id,
      hasSshPassword: true,
      sshAuth: 'password',
    });
    const second = await client.write('POST', '/api/proxy-configurations', proxyInput());
    expect((await read(client, second.json().id)).sshServerId).toBe(server!.id);
    expect(await serversOf(user.id)).toHaveLength(1);
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.targetId, server!.id));
    expect(audit.map((a) => a.action)).toEqual(['ssh_server.create']);
    expect(JSON.stringify(audit)).not.toContain(SSH_PASSWORD);

    // The saved server alone logs in: the proxy's own password is not needed.
    const onSaved = await client.write('POST', '/api/proxy-configurations', onServer(server!.id));
    expect(await read(client, onSaved.json().id)).toMatchObject({
      hasSshPassword: false,
      sshAuth: 'server',
    });

    // At the account's server limit (3): the proxy is saved with its own password, no server.
    for (const ip of ['203.0.113.11', '203.0.113.12']) {
      await client.write('POST', '/api/proxy-configurations', proxyInput({ serverIp: ip }));
    }
    expect(await serversOf(user.id)).toHaveLength(3);
    const past = await client.write(
      'POST',
      '/api/proxy-configurations',
      proxyInput({ serverIp: '203.0.113.13' }),
    );
    expect(past.statusCode, past.body).toBe(200);
    expect(await read(client, past.json().id)).toMatchObject({
      sshServerId: null,
      hasSshPassword: true,
      sshAuth: 'password',
    });
    expect(await serversOf(user.id)).toHaveLength(3);
  });

  it('the edit dialog moves a proxy to another saved server: the old target’s password goes, the new pin comes', async () => {
    const { client } = await signedInClient(t);
    const created = await client.write('POST', '/api/proxy-configurations', proxyInput());
    const id = created.json().id as string;
    const before = await read(client, id);
    const target = await savedServer(client, '203.0.113.50', 'deploy');
    await t.database.db
      .update(sshServers)
      .set({ hostKeyFingerprint: PIN })
      .where(eq(sshServers.id, target.id));
    const edit = {
      domain: before.domain,
      targetServer: before.targetServer,
      serverIp: before.serverIp,
      sshUser: before.sshUser,
      sshPort: before.sshPort,
    };
    const foreign = await (await signedInClient(t)).client.write('POST', '/api/ssh-servers', {
      name: 'x',
      host: '203.0.113.51',
      password: SERVER_PASSWORD,
    });
    const refused = await client.write('PUT', `/api/user/proxy-configurations/${id}`, {
      ...edit,
      sshServerId: foreign.json().id,
    });
    expect(refused.statusCode).toBe(404);
    expect(await read(client, id)).toEqual(before);

    const moved = await client.write('PUT', `/api/user/proxy-configurations/${id}`, {
      ...edit,
      sshServerId: target.id,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({
      serverIp: '203.0.113.50',
      sshUser: 'deploy',
      sshServerId: target.id,
      hostKeyFingerprint: PIN,
      hasSshPassword: false,
      sshAuth: 'server',
    });
    const row = await proxyRow(id);
    expect(row.sshPasswordEnc).toBeNull();
    expect(row.sshPasswordTarget).toBeNull();
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, id));
    const change = audit.find((a) => a.action === 'proxy.edit')!;
    expect(JSON.stringify(change.changes)).toContain(target.id);

    // Typed back to an address no saved server has: on no server, nothing to log in with.
    const typed = await client.write('PUT', `/api/user/proxy-configurations/${id}`, {
      ...edit,
      serverIp: '203.0.113.52',
    });
    expect(typed.json()).toMatchObject({
      serverIp: '203.0.113.52',
      sshServerId: null,
      hostKeyFingerprint: null,
      sshAuth: 'none',
    });
    // Typed to where a saved server is: a typed edit never reaches a saved server's secrets.
    const typedBack = await client.write('PUT', `/api/user/proxy-configurations/${id}`, {
      ...edit,
      serverIp: '203.0.113.50',
      sshUser: 'deploy',
    });
    expect(typedBack.json()).toMatchObject({ sshServerId: null, sshAuth: 'none' });
  });

  it('the SSH test of a saved server that holds no credential says so, in the caller’s language', async () => {
    const { client } = await signedInClient(t);
    const server = await savedServer(client, '203.0.113.60');
    // Moving the server elsewhere clears its secrets.
    await client.write('PATCH', `/api/ssh-servers/${server.id}`, { username: 'deploy' });
    const answer = await client.write(
      'POST',
      '/api/test-ssh',
      { sshServerId: server.id },
      { 'accept-language': 'es' },
    );
    expect(answer.statusCode).toBe(400);
    expect(answer.json().message).toBe(
      translate('es', 'checks.ssh.serverHasNoCredential', { target: 'deploy@203.0.113.60:22' }),
    );
    const mixed = await client.write('POST', '/api/test-ssh', {
      sshServerId: server.id,
      password: 'typed',
    });
    expect(mixed.statusCode).toBe(400);
    expect(mixed.body).toContain(translate('en', 'validation.sshServer.either'));
  });
});
