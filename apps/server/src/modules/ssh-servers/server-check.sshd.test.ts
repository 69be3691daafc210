// "Check now" and the pinned host key of saved servers, against real throwaway sshds on
// 127.0.0.1: the check logs in with the saved key, pins the host key on first contact, reads
// the facts of this very machine in one exec and stores them; a key the server refuses is
// stored as unreachable with its cause; a changed host key refuses the check, the SSH test of a
// proxy on that server and its deployment (a second sshd whose sessions die on their first
// command, so nothing a deployment sends ever runs here), until "forget key" lets the next
// contact pin again. On PGlite, and on PostgreSQL when TEST_DATABASE_URL is set. Needs root.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalSshd, type TLocalSshd } from '../../../test/peers/test-sshd';
import { waitForStatus } from '../../../test/support/proxies-test-helpers';
import {
  insertConfiguration,
  signedInClient,
  testSecretKeyFile,
} from '../../../test/support/ssh-test-fixtures';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import type { TestClient } from '../../../test/support/test-client';
import { testDatabaseKinds } from '../../../test/support/test-database';
import { auditLog, deployments, proxyConfigurations, sshServers } from '../../db/schema';

const BOGUS_PIN = 'SHA256:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

let sshd: TLocalSshd;
let deadEnd: TLocalSshd;
beforeAll(async () => {
  sshd = await startLocalSshd();
  deadEnd = await startLocalSshd({ forceScript: 'kill -9 $PPID\n' });
});
afterAll(async () => {
  await sshd?.stop();
  await deadEnd?.stop();
});

/** `KEY=` of this machine's /etc/os-release, as the facts script reads it. */
function osRelease(key: string): string | null {
  const line = readFileSync('/etc/os-release', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${key}=`));
  return line ? line.slice(key.length + 1).replace(/["']/g, '') : null;
}

describe.each(testDatabaseKinds())('saved server check and host key on %s', (kind) => {
  let t: TTestApp;
  const keyFile = testSecretKeyFile();
  beforeAll(async () => {
    t = await createTestApp(kind, { config: { secretKeyFile: keyFile }, deploy: { workers: 1 } });
  });
  afterAll(async () => t?.close());

  async function saveServer(client: TestClient, on: TLocalSshd, privateKey: string) {
    const created = await client.write('POST', '/api/ssh-servers', {
      name: 'checked',
      host: '127.0.0.1',
      port: on.port,
      username: 'root',
      authKind: 'key',
      privateKey,
    });
    expect(created.statusCode, created.body).toBe(201);
    return created.json().id as string;
  }

  /** A saved server on `on` pinned to a key it does not have, and a proxy on it. */
  async function pinnedWrong(
    client: TestClient,
    userId: string,
    on: TLocalSshd,
    proxyPin: string | null,
  ) {
    const id = await saveServer(client, on, on.clientKey);
    await t.database.db
      .update(sshServers)
      .set({ hostKeyFingerprint: BOGUS_PIN })
      .where(eq(sshServers.id, id));
    const proxyId = await insertConfiguration(t.database, keyFile, {
      userId,
      serverIp: '127.0.0.1',
      sshPort: on.port,
      sshUser: 'root',
      ...(proxyPin ? { hostKeyFingerprint: proxyPin } : {}),
    });
    await t.database.db
      .update(proxyConfigurations)
      .set({ sshServerId: id, targetServer: 'http://10.0.0.5:8080' })
      .where(eq(proxyConfigurations.id, proxyId));
    return { id, proxyId };
  }

  const check = (client: TestClient, id: string) =>
    client.write('POST', `/api/ssh-servers/${id}/check`);

  it('logs in once, pins the host key, reads and stores the facts of the server', async () => {
    const { client } = await signedInClient(t.app);
    const id = await saveServer(client, sshd, sshd.clientKey);
    const response = await check(client, id);
    expect(response.statusCode, response.body).toBe(200);
    const { server, text } = response.json();
    expect(text).toBeNull();
    expect(server).toMatchObject({
      reachable: true,
      hostKeyFingerprint: sshd.hostKeyFingerprint,
    });
    expect(Date.now() - Date.parse(server.lastCheckedAt)).toBeLessThan(60_000);
    const facts = server.facts;
    expect(facts.os).toEqual({
      id: osRelease('ID'),
      version: osRelease('VERSION_ID'),
      name: osRelease('PRETTY_NAME'),
    });
    expect(facts.rootAccess).toBe('root');
    const df = execFileSync('df', ['-Pk', '/'], { encoding: 'utf8' }).split('\n')[1]!.split(/\s+/);
    // Free space moves while tests run elsewhere: within 1 GiB of what df says now.
    expect(Math.abs(facts.diskFreeBytes - Number(df[3]) * 1024)).toBeLessThan(1024 ** 3);
    // The list shows it without a round trip.
    const list = (await client.request({ method: 'GET', url: '/api/ssh-servers' })).json();
    expect(list.servers[0]).toMatchObject({ id, reachable: true, facts });
  });

  it('stores a refused key as unreachable, with the cause, and keeps the facts it had', async () => {
    const { client } = await signedInClient(t.app, 'es');
    const id = await saveServer(client, sshd, sshd.strangerKey);
    const response = await check(client, id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      server: { reachable: false, facts: null },
      text: { key: 'deployLog.ssh.keyRefused' },
    });
    expect(response.json().server.lastCheckedAt).not.toBeNull();
  });

  it('refuses check, SSH test and deployment on a changed host key until "forget key"', async () => {
    const { client, userId } = await signedInClient(t.app);
    // A proxy on that server that never pinned a key of its own.
    const { id, proxyId } = await pinnedWrong(client, userId, deadEnd, null);

    const refused = await check(client, id);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'host_key_changed',
      text: {
        key: 'sshServer.hostKeyChanged',
        params: { expected: BOGUS_PIN, actual: deadEnd.hostKeyFingerprint },
      },
    });
    expect(refused.json().message).toContain('Forget key');
    const [unchanged] = await t.database.db.select().from(sshServers).where(eq(sshServers.id, id));
    expect(unchanged).toMatchObject({ lastCheckedAt: null, reachable: null, facts: null });

    const tested = await client.write('POST', '/api/test-ssh', {
      serverIp: '127.0.0.1',
      username: 'root',
      port: deadEnd.port,
      configurationId: proxyId,
    });
    expect(tested.json()).toMatchObject({
      connected: false,
      text: { params: { cause: { key: 'checks.ssh.cause.hostKeyChanged' } } },
    });

    const deploy = await client.write('POST', `/api/deploy/${proxyId}`);
    expect(deploy.statusCode, deploy.body).toBe(202);
    await waitForStatus(client, proxyId, (s) => s === 'failed');
    const [run] = await t.database.db
      .select()
      .from(deployments)
      .where(eq(deployments.id, deploy.json().deploymentId));
    expect(run?.errorCode).toBe('host_key_mismatch');

    const forgot = await client.write('POST', `/api/ssh-servers/${id}/forget-host-key`);
    expect(forgot.statusCode, forgot.body).toBe(200);
    expect(forgot.json().hostKeyFingerprint).toBeNull();
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, id), eq(auditLog.action, 'ssh_server.forget_host_key')));
    expect(audit).toHaveLength(1);

    // The next contact pins again; this server's sessions die at once, so the check fails
    // after the login, with the new key pinned.
    await check(client, id);
    const [repinned] = await t.database.db.select().from(sshServers).where(eq(sshServers.id, id));
    expect(repinned?.hostKeyFingerprint).toBe(deadEnd.hostKeyFingerprint);
  });

  it('forgets the server’s pin too when "Forget host key" is chosen on a proxy on it', async () => {
    const { client, userId } = await signedInClient(t.app);
    const { id, proxyId } = await pinnedWrong(client, userId, sshd, BOGUS_PIN);
    const forgot = await client.write('DELETE', `/api/proxy-configurations/${proxyId}/host-key`);
    expect(forgot.statusCode, forgot.body).toBe(200);
    const response = await check(client, id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().server.hostKeyFingerprint).toBe(sshd.hostKeyFingerprint);
  });

  it('answers 404 for another user’s server on check and forget key', async () => {
    const { client: owner } = await signedInClient(t.app);
    const id = await saveServer(owner, sshd, sshd.clientKey);
    const { client: other } = await signedInClient(t.app);
    expect((await check(other, id)).statusCode).toBe(404);
    const forget = await other.write('POST', `/api/ssh-servers/${id}/forget-host-key`);
    expect(forget.statusCode).toBe(404);
  });
});
