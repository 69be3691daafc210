// The SSH reachability policy holds for a server given by name too (the edit dialog takes a host
// name): a deployment resolves it first and refuses an answer in loopback or link-local before
// any connection, naming the address. A real DNS server (dnsmasq) answers the names; the rows
// are written as an upgrade leaves them (name and the password bound to it). Needs root and
// dnsmasq (see test-dns-server.ts); on PGlite, and on PostgreSQL when TEST_DATABASE_URL is set.
import { translate } from '@portico/shared/i18n/translate';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proxyConfigurations } from '../../src/db/schema';
import { sshTargetOf } from '../../src/modules/ssh-servers/server-credentials';
import { startTestDnsServer, type TTestDnsServer } from '../peers/test-dns-server';
import { createProxy, signedInClient, waitForStatus } from '../support/proxies-test-helpers';
import { createTestApp, type TTestApp } from '../support/test-app';
import { testDatabaseKinds } from '../support/test-database';
import { type TCountingListener, tcpCounter } from './injection-api-helpers';

let dns: TTestDnsServer;
let counter: TCountingListener;
beforeAll(async () => {
  counter = await tcpCounter();
  dns = await startTestDnsServer({
    zone: 'reach.portico.test',
    a: { 'loop.reach.portico.test': '127.0.0.1', 'meta.reach.portico.test': '169.254.169.254' },
  });
});
afterAll(async () => {
  await dns?.stop();
  await counter?.close();
});

describe.each(testDatabaseKinds())('a server named by a host name, on %s', (kind) => {
  let t: TTestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, {
      config: { sshAllowLoopback: false },
      deploy: {
        workers: 1,
        settings: { acmeDirectoryUrl: 'https://acme.invalid/dir', dnsServers: [dns.address] },
      },
    });
  });
  afterAll(async () => t?.close());

  it.each([
    ['loop.reach.portico.test', 'deployLog.connect.loopbackRefused', '127.0.0.1'],
    ['meta.reach.portico.test', 'deployLog.connect.notAServer', '169.254.169.254'],
  ])('%s: the resolved address is refused before any connection', async (name, key, address) => {
    const { client } = await signedInClient(t);
    const { id } = await createProxy(client);
    const target = { serverIp: name, sshPort: counter.port, sshUser: 'root' };
    await t.database.db
      .update(proxyConfigurations)
      .set({ ...target, sshPasswordTarget: sshTargetOf(target) })
      .where(eq(proxyConfigurations.id, id));
    const started = await client.write('POST', `/api/deploy/${id}`);
    expect(started.statusCode, started.body).toBe(202);
    await waitForStatus(client, id, (s) => s === 'failed');
    const logs = (
      await client.request({ method: 'GET', url: `/api/deployment-logs/${id}` })
    ).json() as { message: string }[];
    const reason = translate('en', 'validation.ip.linkLocal');
    expect(logs.at(-1)!.message).toBe(translate('en', key, { address, reason }));
    expect(counter.count()).toBe(0);
  });
});
