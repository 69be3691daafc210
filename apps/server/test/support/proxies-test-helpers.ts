// Shared by the proxies and deployments API tests: signed-in clients and a saved configuration.
import type { TServerSite } from '@portico/shared/proxy/server-record';
import { eq } from 'drizzle-orm';
import { proxyConfigurations, users } from '../../src/db/schema';
import { snapshotOf } from '../../src/modules/proxies/proxy-view';
import type { TTestApp } from './test-app';
import { newCredentials, TestClient } from './test-client';

export const SSH_PASSWORD = 'Sup3r-Secret-SSH-pass';

/** A new account, signed in; `remoteAddress` keeps a busy file under the register rate limit. */
export async function signedInClient(
  t: TTestApp,
  role: 'user' | 'admin' = 'user',
  remoteAddress?: string,
) {
  const client = new TestClient(t.app, {
    headers: { 'accept-language': 'en' },
    ...(remoteAddress ? { remoteAddress } : {}),
  });
  const creds = newCredentials(role);
  const response = await client.register(creds);
  const user = response.json().user as { id: string; username: string };
  if (role === 'admin') {
    // Before any request loads the user, so no cached row keeps the old role.
    await t.database.db.update(users).set({ role: 'admin' }).where(eq(users.id, user.id));
  }
  return { client, user, password: creds.password };
}

let domainCounter = 0;
export function uniqueDomain(prefix = 'site') {
  domainCounter += 1;
  return `${prefix}-${process.pid}-${domainCounter}.example.com`;
}

export function proxyInput(overrides: Record<string, unknown> = {}) {
  return {
    serverIp: '203.0.113.10',
    domain: uniqueDomain(),
    sshUser: 'root',
    sshPassword: SSH_PASSWORD,
    email: 'admin@example.com',
    targetServer: 'http://10.0.0.5:8080',
    ...overrides,
  };
}

export async function createProxy(client: TestClient, overrides: Record<string, unknown> = {}) {
  const input = proxyInput(overrides);
  const response = await client.write('POST', '/api/proxy-configurations', input);
  if (response.statusCode !== 200) throw new Error(`create failed: ${response.body}`);
  return { id: response.json().id as string, input };
}

/**
 * Marks a configuration as a completed deployment leaves it (HTTPS on, status completed, the
 * deployed snapshot), for tests of what needs a deployed site (the certificate actions).
 */
export async function markDeployed(t: TTestApp, id: string): Promise<void> {
  const [row] = await t.database.db
    .select()
    .from(proxyConfigurations)
    .where(eq(proxyConfigurations.id, id));
  await t.database.db
    .update(proxyConfigurations)
    .set({ status: 'completed', sslConfigured: true, deployedSnapshot: snapshotOf(row!) })
    .where(eq(proxyConfigurations.id, id));
}

/**
 * Marks a configuration as having a site on its server, as a run that wrote there records it
 * (status and record as the deploy job leaves them), for tests of what a removal does.
 */
export async function seedServerSite(
  t: TTestApp,
  id: string,
  overrides: Partial<TServerSite> = {},
): Promise<TServerSite> {
  const row = (
    await t.database.db.select().from(proxyConfigurations).where(eq(proxyConfigurations.id, id))
  )[0]!;
  const site: TServerSite = {
    serverIp: row.serverIp,
    sshPort: row.sshPort,
    sshUser: row.sshUser,
    hostKeyFingerprint: row.hostKeyFingerprint,
    domain: row.domain,
    files: [`/etc/nginx/sites-available/proxy-${row.domain}`],
    enabled: false,
    https: false,
    certificate: null,
    unconfirmed: false,
    checkedAt: new Date().toISOString(),
    ...overrides,
  };
  await t.database.db
    .update(proxyConfigurations)
    .set({ serverSites: [site] })
    .where(eq(proxyConfigurations.id, id));
  return site;
}

/** The configuration once its status passes `done` (polled; a minute at most). */
export async function waitForStatus(client: TestClient, id: string, done: (s: string) => boolean) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const body = (
      await client.request({ method: 'GET', url: `/api/proxy-configurations/${id}` })
    ).json();
    if (done(body.status)) return body;
    if (Date.now() > deadline) throw new Error(`status stayed ${body.status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
