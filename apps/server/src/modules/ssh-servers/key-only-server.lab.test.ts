// A lab server that accepts keys only (PasswordAuthentication no), as many cloud images ship:
// a saved server with a key Portico generated, its public key installed by the user (here the
// lab's own root access appends it to authorized_keys, not Portico), two proxies made by choosing
// the saved server (no password anywhere), both live over HTTPS from Pebble, redeployed, then
// removed from the server. Then the same with an imported, passphrase-protected ssh-keygen key
// for the sudo user, whose sudo asks for the password saved beside the key.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLab, type TLab, type TLabServer } from '../../../../../testbed/src/lab';
import { httpsGet } from '../../../test/support/lab-helpers';
import { inProcessLabApp } from '../../../test/support/lab-in-process-app';
import { signedInClient, waitForStatus } from '../../../test/support/proxies-test-helpers';
import { TEST_APP_OPTIONS, type TTestApp } from '../../../test/support/test-app';
import type { TestClient } from '../../../test/support/test-client';

let lab: TLab;
let s1: TLabServer;
let t: TTestApp;

beforeAll(async () => {
  lab = await startLab({ servers: 1, variants: { s1: ['no-password-login'] } });
  s1 = lab.status.servers[0]!;
  // The DNS check asks the lab's resolver, as the deployments do.
  t = await inProcessLabApp(lab.status, {
    config: { ...TEST_APP_OPTIONS.config, dnsServers: [lab.status.dnsServer] },
  });
});

afterAll(async () => {
  await t?.close();
  await lab?.stop();
});

/** What a user does on their server: append the public key to the user's authorized_keys. */
async function installPublicKey(user: 'root' | 'deploy', publicKey: string) {
  const home = user === 'root' ? '/root' : '/home/deploy';
  const script = [
    `install -d -m 700 -o ${user} -g ${user} ${home}/.ssh`,
    `cat >> ${home}/.ssh/authorized_keys`,
    `chown ${user}:${user} ${home}/.ssh/authorized_keys`,
    `chmod 600 ${home}/.ssh/authorized_keys`,
  ].join(' && ');
  const done = await lab.exec(s1.name, ['sh', '-c', script], `${publicKey.trim()}\n`);
  expect(done.code, done.stderr).toBe(0);
}

const upstream = () => `http://${lab.status.upstream.address}:${lab.status.upstream.port}`;

async function proxyOnServer(client: TestClient, sshServerId: string, domain: string) {
  const saved = await client.write('POST', '/api/proxy-configurations', {
    sshServerId,
    domain,
    email: 'ops@example.com',
    targetServer: upstream(),
  });
  expect(saved.statusCode, saved.body).toBe(200);
  return saved.json().id as string;
}

async function deployLive(client: TestClient, id: string, domain: string) {
  const started = await client.write('POST', `/api/deploy/${id}`);
  expect(started.statusCode, started.body).toBe(202);
  const done = await waitForStatus(client, id, (s) => s !== 'deploying');
  if (done.status !== 'completed') {
    const log = await client.request({ method: 'GET', url: `/api/deployment-logs/${id}` });
    throw new Error(`deploy ${done.status}: ${log.body.slice(-2000)}`);
  }
  const page = await httpsGet(lab.status, s1.address, domain, '/');
  expect(page.status).toBe(200);
}

async function removeWithSite(client: TestClient, id: string) {
  const path = (
    await client.request({ method: 'GET', url: `/api/proxy-configurations/${id}` })
  ).json().nginxConfigPath as string;
  const deleted = await client.write(
    'DELETE',
    `/api/proxy-configurations/${id}?removeFromServer=true`,
  );
  expect(deleted.statusCode, deleted.body).toBe(200);
  expect(deleted.json()).toEqual({ success: true, removedFromServer: true });
  expect((await lab.exec(s1.name, ['test', '-e', path])).code).not.toBe(0);
}

/**
 * The saved server as read once its facts were read after `since` (a deploy's follow-up read
 * lands just after the run is recorded done, so it is waited for).
 */
async function checkedAfter(client: TestClient, serverId: string, since: number) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const server = (
      await client.request({ method: 'GET', url: `/api/ssh-servers/${serverId}` })
    ).json();
    if (server.lastCheckedAt && Date.parse(server.lastCheckedAt) > since) return server;
    if (Date.now() > deadline) throw new Error(`facts not read again: ${JSON.stringify(server)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('a key-only lab server, through the API', () => {
  it('refuses a password login: only keys get in', async () => {
    const { client } = await signedInClient(t);
    const root = s1.users.find((u) => u.name === 'root')!;
    const tested = await client.write('POST', '/api/test-ssh', {
      serverIp: s1.address,
      username: 'root',
      password: root.password,
    });
    expect(tested.json()).toMatchObject({ connected: false });
    expect(tested.json().text.params.cause.key).toBe('checks.ssh.cause.authFailed');
  });

  it('a generated key: two proxies chosen by saved server, live over HTTPS, redeployed, removed', async () => {
    const { client } = await signedInClient(t);
    const created = await client.write('POST', '/api/ssh-servers', {
      name: 'key-only',
      host: s1.address,
      username: 'root',
      authKind: 'key',
      generateKey: true,
    });
    expect(created.statusCode, created.body).toBe(201);
    const server = created.json();

    // Before the key is on the server: the server refused this key, not a password failure.
    const early = await client.write('POST', '/api/test-ssh', { sshServerId: server.id });
    expect(early.json().text.params.cause.key).toBe('checks.ssh.cause.keyRefused');

    await installPublicKey('root', server.publicKey);
    const tested = await client.write('POST', '/api/test-ssh', { sshServerId: server.id });
    expect(tested.json()).toMatchObject({
      connected: true,
      fingerprint: s1.hostKeyFingerprint,
      error: null,
    });
    const [first, second] = [s1.domains[0]!, s1.domains[2]!];
    const dns = await client.write('POST', '/api/validate-dns', {
      domain: first,
      sshServerId: server.id,
    });
    expect(dns.json()).toMatchObject({ isValid: true, expectedIp: s1.address });

    const a = await proxyOnServer(client, server.id, first);
    const b = await proxyOnServer(client, server.id, second);
    const view = (
      await client.request({ method: 'GET', url: `/api/proxy-configurations/${a}` })
    ).json();
    expect(view).toMatchObject({
      serverIp: s1.address,
      sshUser: 'root',
      sshServerId: server.id,
      hasSshPassword: false,
      sshAuth: 'server',
    });
    // Never checked: a deploy that succeeds reads the facts, which then show its nginx running.
    expect(server.lastCheckedAt).toBeNull();
    await deployLive(client, a, first);
    const afterFirst = await checkedAfter(client, server.id, 0);
    expect(afterFirst).toMatchObject({ reachable: true, facts: { nginx: { running: true } } });
    expect(afterFirst.facts.certbot.version).toEqual(expect.any(String));
    await deployLive(client, b, second);
    // Redeploy: the same key again, the site still served; the facts are read again.
    await deployLive(client, a, first);
    const listed = await checkedAfter(client, server.id, Date.parse(afterFirst.lastCheckedAt));
    expect(listed.proxyCount).toBe(2);

    await removeWithSite(client, a);
    await removeWithSite(client, b);
  });

  it('an imported passphrase-protected ssh-keygen key for the sudo user, sudo password saved beside it', async () => {
    const { client } = await signedInClient(t);
    const dir = mkdtempSync(join(tmpdir(), 'portico-lab-key-'));
    const passphrase = 'lab key passphrase';
    let privateKey: string;
    let publicKey: string;
    try {
      execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', passphrase, '-f', join(dir, 'k')]);
      privateKey = readFileSync(join(dir, 'k'), 'utf8');
      publicKey = readFileSync(join(dir, 'k.pub'), 'utf8');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const deploy = s1.users.find((u) => u.name === 'deploy')!;
    const created = await client.write('POST', '/api/ssh-servers', {
      name: 'key-only-deploy',
      host: s1.address,
      username: 'deploy',
      authKind: 'key',
      privateKey,
      passphrase,
      sudoPassword: deploy.password,
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.body).not.toContain(passphrase);
    const server = created.json();
    await installPublicKey('deploy', publicKey);

    const domain = s1.domains[1]!;
    const id = await proxyOnServer(client, server.id, domain);
    await deployLive(client, id, domain);
    await removeWithSite(client, id);
  });
});
