// A loopback (or the cloud metadata address) in disguise, through each surface that takes an
// address from a user: the webhook URL, the SSH target and a destination's probe. One classifier
// (packages/shared validation/address-class.ts) judges an IPv6 address by the IPv4 address it
// carries; these check that every surface refuses the disguise as it refuses the plain address,
// and that nothing is stored or contacted. On PGlite, and on PostgreSQL when TEST_DATABASE_URL
// is set.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { destinationServers, notificationSettings } from '../../src/db/schema';
import { proxyInput, signedInClient } from '../support/proxies-test-helpers';
import { createTestApp, type TTestApp } from '../support/test-app';
import type { TestClient } from '../support/test-client';
import { testDatabaseKinds } from '../support/test-database';
import { type TCountingListener, tcpCounter } from './injection-api-helpers';

/** 127.0.0.1 written as IPv6, in each form that carries an IPv4 address. */
const LOOPBACK_DISGUISES = [
  '::ffff:127.0.0.1',
  '::ffff:7f00:1',
  '::ffff:0:7f00:1',
  '::7f00:1',
  '64:ff9b::7f00:1',
  '64:ff9b:1::7f00:1',
  '2002:7f00:1::1',
  '2001:0:4136:e378:8000:63bf:80ff:fffe',
];
/** 169.254.169.254 (cloud metadata), likewise. */
const METADATA_DISGUISES = [
  '::ffff:a9fe:a9fe',
  '::ffff:0:a9fe:a9fe',
  '::a9fe:a9fe',
  '64:ff9b::a9fe:a9fe',
  '2002:a9fe:a9fe::1',
  '2001:0:4136:e378:8000:63bf:5601:5601',
];

let counter: TCountingListener;
beforeAll(async () => {
  counter = await tcpCounter();
});
afterAll(async () => counter?.close());

describe.each(testDatabaseKinds())('an address in disguise, on %s', (kind) => {
  let t: TTestApp;
  let client: TestClient;
  let userId: string;
  let admin: TestClient;
  beforeAll(async () => {
    // As shipped: no private webhooks, no SSH to this machine; a destination probed on save.
    t = await createTestApp(kind, {
      config: { sshAllowLoopback: false, webhookAllowPrivate: false },
      probeOnSave: true,
    });
    ({
      client,
      user: { id: userId },
    } = await signedInClient(t));
    ({ client: admin } = await signedInClient(t, 'admin'));
  });
  afterAll(async () => t?.close());

  /** A destination's status once the probe on save recorded one. */
  async function statusOnceProbed(id: string): Promise<string> {
    for (let i = 0; i < 100; i++) {
      const [row] = await t.database.db
        .select()
        .from(destinationServers)
        .where(eq(destinationServers.id, id));
      if (row!.status !== 'unknown') return row!.status;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return 'unknown';
  }

  const saveWebhook = (host: string) =>
    client.write('PUT', '/api/account/notifications', {
      emailEnabled: true,
      webhookUrl: `http://[${host}]:${counter.port}/hook`,
    });

  it('refuses a webhook URL at a loopback in disguise as private, like 127.0.0.1', async () => {
    const connections = counter.count();
    const plain = await saveWebhook('::ffff:127.0.0.1');
    expect(plain.json().code).toBe('webhook_private');
    for (const host of LOOPBACK_DISGUISES) {
      const response = await saveWebhook(host);
      expect(response.statusCode, host).toBe(400);
      expect(response.json().code, host).toBe('webhook_private');
      expect(response.json().message).toContain('a private or loopback address');
    }
    for (const host of METADATA_DISGUISES) {
      const response = await saveWebhook(host);
      expect(response.statusCode, host).toBe(400);
      expect(response.json().code, host).toBe('webhook_forbidden');
    }
    const rows = await t.database.db
      .select()
      .from(notificationSettings)
      .where(eq(notificationSettings.userId, userId));
    expect(rows.filter((row) => row.webhookUrlEnc !== null)).toEqual([]);
    expect(counter.count()).toBe(connections);
  });

  it('refuses an SSH target at a loopback in disguise, in the test and the wizard', async () => {
    const connections = counter.count();
    for (const serverIp of [...LOOPBACK_DISGUISES, ...METADATA_DISGUISES]) {
      const tested = await client.write('POST', '/api/test-ssh', {
        serverIp,
        username: 'root',
        port: counter.port,
        password: 'pw',
      });
      expect(tested.statusCode, serverIp).toBe(400);
      const saved = await client.write(
        'POST',
        '/api/proxy-configurations',
        proxyInput({ serverIp, sshPort: counter.port }),
      );
      expect(saved.statusCode, serverIp).toBe(400);
    }
    expect(counter.count()).toBe(connections);
  });

  it('never probes a destination at 0.0.0.0 ("this network", this machine in disguise)', async () => {
    const connections = counter.count();
    const created = await admin.write('POST', '/api/admin/destination-servers', {
      name: 'Disguised',
      endpoint: `0.0.0.0:${counter.port}`,
    });
    expect(created.statusCode).toBe(201);
    expect(await statusOnceProbed(created.json().id)).toBe('offline');
    // The control: the same listener at its plain loopback address is probed, and online.
    const control = await admin.write('POST', '/api/admin/destination-servers', {
      name: 'Plain',
      endpoint: `127.0.0.1:${counter.port}`,
    });
    expect(await statusOnceProbed(control.json().id)).toBe('online');
    expect(counter.count()).toBe(connections + 1);
  });
});
