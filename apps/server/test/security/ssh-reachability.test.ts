// Which addresses Portico logs in to over SSH (docs/SECURITY.md, "SSH reachability"): private
// ranges are allowed (people run servers on a LAN or a VPN); this network (0/8), link-local
// (169.254/16: cloud metadata), multicast (224/4) and reserved (240/4, broadcast) are refused by
// the shared schema with words saying why; loopback (127/8, the Portico machine itself) is refused
// by the connection test and by deployments unless PORTICO_SSH_ALLOW_LOOPBACK is set. A counting
// listener on 127.0.0.1 must see no connection from any refusal. On PGlite, and on PostgreSQL
// when TEST_DATABASE_URL is set.
import type { TLanguage } from '@portico/shared/api-error';
import { translate } from '@portico/shared/i18n/translate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createProxy,
  proxyInput,
  signedInClient,
  waitForStatus,
} from '../support/proxies-test-helpers';
import { createTestApp, type TTestApp } from '../support/test-app';
import type { TestClient } from '../support/test-client';
import { testDatabaseKinds } from '../support/test-database';
import {
  expectValidationRefusal,
  type TCountingListener,
  tcpCounter,
} from './injection-api-helpers';

const NOT_A_SERVER: [string, string][] = [
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['169.254.169.254', 'linkLocal'],
  ['169.254.0.1', 'linkLocal'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'reserved'],
];
const PRIVATE_AND_PUBLIC = [
  '10.0.0.1',
  '172.16.5.4',
  '172.31.255.254',
  '192.168.1.10',
  '100.64.0.1',
  '198.18.0.10',
  '203.0.113.5',
  '8.8.8.8',
];

let counter: TCountingListener;
beforeAll(async () => {
  counter = await tcpCounter();
});
afterAll(async () => counter?.close());

describe.each(testDatabaseKinds())('SSH reachability policy on %s', (kind) => {
  let t: TTestApp;
  let client: TestClient;
  beforeAll(async () => {
    // As shipped: loopback not allowed.
    t = await createTestApp(kind, {
      config: { sshAllowLoopback: false },
      deploy: { workers: 1 },
    });
    ({ client } = await signedInClient(t));
  });
  afterAll(async () => t?.close());

  const testSsh = (serverIp: string, lang: TLanguage) =>
    client.write(
      'POST',
      '/api/test-ssh',
      { serverIp, username: 'root', port: counter.port, password: 'pw' },
      { 'accept-language': lang },
    );

  it('refuses addresses that are never a server, saying why, in the test and on save', async () => {
    for (const [address, why] of NOT_A_SERVER) {
      for (const lang of ['es', 'en'] as const) {
        const tested = await testSsh(address, lang);
        expectValidationRefusal(tested, 'serverIp', lang, address);
        expect(tested.json().issues[0].message).toBe(translate(lang, `validation.ip.${why}`));
        const saved = await client.write(
          'POST',
          '/api/proxy-configurations',
          proxyInput({ serverIp: address }),
          { 'accept-language': lang },
        );
        expectValidationRefusal(saved, 'serverIp', lang, address);
      }
    }
    expect(counter.count()).toBe(0);
  });

  it('refuses loopback (this machine) in the connection test, saying why', async () => {
    for (const address of ['127.0.0.1', '127.1.2.3']) {
      for (const lang of ['es', 'en'] as const) {
        const response = await testSsh(address, lang);
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({
          code: 'address_refused',
          message: translate(lang, 'checks.ssh.loopbackRefused'),
        });
      }
    }
    expect(counter.count()).toBe(0);
  });

  it('refuses loopback in a deployment, naming the address, before any connection', async () => {
    const { id } = await createProxy(client, { serverIp: '127.0.0.1', sshPort: counter.port });
    for (const lang of ['es', 'en'] as const) {
      const started = await client.write(
        'POST',
        `/api/proxy-configurations/${id}/redeploy`,
        undefined,
        {
          'accept-language': lang,
        },
      );
      expect(started.statusCode, started.body).toBe(202);
      await waitForStatus(client, id, (s) => s === 'failed');
      // Read in the other language: the line is kept as a text, shown in the reader's words.
      const reader = lang === 'es' ? 'en' : 'es';
      const logs = (
        await client.request({
          method: 'GET',
          url: `/api/deployment-logs/${id}`,
          headers: { 'accept-language': reader },
        })
      ).json() as { deploymentId: string; message: string }[];
      const run = logs.filter((l) => l.deploymentId === started.json().deploymentId);
      expect(run.at(-1)!.message).toBe(
        translate(reader, 'deployLog.connect.loopbackRefused', { address: '127.0.0.1' }),
      );
    }
    expect(counter.count()).toBe(0);
  });

  it('accepts private and public addresses', async () => {
    for (const address of PRIVATE_AND_PUBLIC) {
      const saved = await client.write(
        'POST',
        '/api/proxy-configurations',
        proxyInput({ serverIp: address }),
      );
      expect(saved.statusCode, `${address}: ${saved.body}`).toBe(200);
    }
  });
});

describe('control: with PORTICO_SSH_ALLOW_LOOPBACK, loopback is tested for real', () => {
  it('reaches the listener on 127.0.0.1', async () => {
    const t = await createTestApp('pglite', { config: { sshAllowLoopback: true } });
    try {
      const { client } = await signedInClient(t);
      const response = await client.write('POST', '/api/test-ssh', {
        serverIp: '127.0.0.1',
        username: 'root',
        port: counter.port,
        password: 'pw',
      });
      expect(response.statusCode).toBe(200);
      expect(counter.count()).toBe(1);
    } finally {
      await t.close();
    }
  });
});
