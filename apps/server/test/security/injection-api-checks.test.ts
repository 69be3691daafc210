// Injection, the wizard's checks: every field of POST /api/test-ssh, /api/validate-dns
// and /api/check-duplicate-configuration, fuzzed with the shared corpus, is refused with a 400 in
// the caller's language before anything is contacted. The SSH address points at a counting TCP
// listener and the resolver at a counting UDP socket, both on 127.0.0.1: they must stay at 0
// until the closing control case shows that a valid request does reach them.
import type { TLanguage } from '@portico/shared/api-error';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInClient } from '../support/proxies-test-helpers';
import { createTestApp, type TTestApp } from '../support/test-app';
import type { TestClient } from '../support/test-client';
import {
  assertPlantedRefused,
  expectValidationRefusal,
  explicitValues,
  shown,
  type TCountingListener,
  type TFieldKind,
  tcpCounter,
  udpCounter,
} from './injection-api-helpers';
import { validDomain, validIpv4, validSshUser } from './injection-corpus';

const RUNS = 60;

interface TFieldCase {
  url: string;
  field: string;
  kind: TFieldKind;
  valid: fc.Arbitrary<string>;
}

describe('injection: wizard checks refuse hostile fields before contacting anything', () => {
  let t: TTestApp;
  let ssh: TCountingListener;
  let dns: TCountingListener;
  let client: TestClient;
  let bases: Record<string, Record<string, unknown>>;

  beforeAll(async () => {
    ssh = await tcpCounter();
    dns = await udpCounter();
    t = await createTestApp('pglite', { config: { dnsServers: [`127.0.0.1:${dns.port}`] } });
    ({ client } = await signedInClient(t));
    bases = {
      '/api/test-ssh': {
        serverIp: '127.0.0.1',
        username: 'root',
        port: ssh.port,
        password: 'pw',
      },
      '/api/validate-dns': { domain: 'example.com', serverIp: '127.0.0.1' },
      '/api/check-duplicate-configuration': {
        domain: 'example.com',
        serverIp: '127.0.0.1',
        sshUser: 'root',
      },
    };
  });
  afterAll(async () => {
    await t?.close();
    await ssh?.close();
    await dns?.close();
  });

  async function send(url: string, body: Record<string, unknown>, lang: TLanguage) {
    return client.write('POST', url, body, { 'accept-language': lang });
  }

  /** Sends a hostile body and checks that this very request contacted nothing. */
  async function sendHostile(url: string, body: Record<string, unknown>, lang: TLanguage) {
    const before = [ssh.count(), dns.count()];
    const response = await send(url, body, lang);
    const what = `${url} ${shown(body)}`;
    expect(ssh.count() - before[0]!, `TCP connections to the SSH stand-in: ${what}`).toBe(0);
    expect(dns.count() - before[1]!, `datagrams to the DNS stand-in: ${what}`).toBe(0);
    return response;
  }

  const cases = (): TFieldCase[] => [
    { url: '/api/test-ssh', field: 'serverIp', kind: 'host', valid: validIpv4 },
    { url: '/api/test-ssh', field: 'username', kind: 'sshUser', valid: validSshUser },
    // Fragments planted into the listener's own port: a lenient parse would connect to it.
    { url: '/api/test-ssh', field: 'port', kind: 'port', valid: fc.constant(String(ssh.port)) },
    { url: '/api/validate-dns', field: 'domain', kind: 'domain', valid: validDomain },
    { url: '/api/validate-dns', field: 'serverIp', kind: 'host', valid: validIpv4 },
    {
      url: '/api/check-duplicate-configuration',
      field: 'domain',
      kind: 'domain',
      valid: validDomain,
    },
    {
      url: '/api/check-duplicate-configuration',
      field: 'serverIp',
      kind: 'host',
      valid: validIpv4,
    },
    {
      url: '/api/check-duplicate-configuration',
      field: 'sshUser',
      kind: 'sshUser',
      valid: validSshUser,
    },
  ];

  it('each field with corpus fragments planted in a valid value: 400, nothing contacted', async () => {
    for (const c of cases()) {
      await assertPlantedRefused(c, RUNS, async (value, lang) => {
        const what = `${c.url} ${c.field}=${shown(value)}`;
        const response = await sendHostile(c.url, { ...bases[c.url], [c.field]: value }, lang);
        expectValidationRefusal(response, c.field, lang, what);
      });
    }
  });

  it('each field given hand-picked hostile values and wrong types: 400, nothing contacted', async () => {
    for (const c of cases()) {
      for (const value of explicitValues(c.kind)) {
        for (const lang of ['es', 'en'] as const) {
          const response = await sendHostile(c.url, { ...bases[c.url], [c.field]: value }, lang);
          expectValidationRefusal(response, c.field, lang, `${c.url} ${c.field}=${shown(value)}`);
        }
      }
    }
  });

  it('control: a valid test-ssh does reach the TCP stand-in (so the zero above means something)', async () => {
    const response = await send('/api/test-ssh', bases['/api/test-ssh']!, 'en');
    expect(response.statusCode).toBe(200);
    expect(response.json().connected).toBe(false);
    expect(ssh.count()).toBe(1);
    expect(dns.count()).toBe(0);
  });

  it('control: a valid validate-dns does reach the UDP stand-in', async () => {
    const response = await send('/api/validate-dns', bases['/api/validate-dns']!, 'en');
    expect(response.statusCode).toBe(200);
    expect(response.json().isValid).toBe(false);
    expect(dns.count()).toBeGreaterThan(0);
  });
});

// The per-server limit of /api/test-ssh is shared by every account, so it must count one server
// under one key: a second spelling of the same address (leading zeros, read as octal by the C
// library, or spaces) must neither reach the server nor open a fresh allowance.
describe('injection: the per-server SSH-test limit is keyed on the one canonical address', () => {
  let t: TTestApp;
  let ssh: TCountingListener;
  beforeAll(async () => {
    ssh = await tcpCounter();
    t = await createTestApp('pglite');
  });
  afterAll(async () => {
    await t?.close();
    await ssh?.close();
  });

  it('30 tests of 127.0.0.1 use up the allowance of every spelling of it', async () => {
    const body = (serverIp: string) => ({
      serverIp,
      username: 'root',
      port: ssh.port,
      password: 'pw',
    });
    // Three accounts (each may test 10 times a minute) use up the server's 30 in 10 minutes.
    for (let account = 0; account < 3; account += 1) {
      const { client } = await signedInClient(t);
      for (let i = 0; i < 10; i += 1) {
        const response = await client.write('POST', '/api/test-ssh', body('127.0.0.1'));
        expect(response.statusCode, response.body).toBe(200);
      }
    }
    expect(ssh.count()).toBe(30);
    const { client } = await signedInClient(t);
    for (const spelling of ['127.0.0.01', '127.000.0.1', '0127.0.0.1']) {
      const response = await client.write('POST', '/api/test-ssh', body(spelling), {
        'accept-language': 'es',
      });
      expectValidationRefusal(response, 'serverIp', 'es', spelling);
    }
    const spaced = await client.write('POST', '/api/test-ssh', body(' 127.0.0.1  '));
    expect(spaced.statusCode, spaced.body).toBe(429);
    expect(ssh.count()).toBe(30);
  });
});
