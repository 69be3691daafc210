// Needs dnsmasq (Debian package): left out with the sshd/nginx tiers where the lab prerequisites
// are missing (apps/server/vitest.config.ts, *.dns.test.ts).
// POST /api/validate-dns against a real DNS server (dnsmasq on 127.0.0.1), on PGlite and on
// PostgreSQL when TEST_DATABASE_URL is set.
import { translate } from '@portico/shared/i18n/translate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startSilentDnsServer,
  startTestDnsServer,
  type TTestDnsServer,
} from '../../../test/peers/test-dns-server';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import { newCredentials, TestClient } from '../../../test/support/test-client';
import { testDatabaseKinds } from '../../../test/support/test-database';

const SERVER_IP = '203.0.113.10';
let dns: TTestDnsServer;
let silent: TTestDnsServer;

beforeAll(async () => {
  dns = await startTestDnsServer({
    zone: 'portico.test',
    a: { 'ok.portico.test': SERVER_IP, 'elsewhere.portico.test': '198.51.100.7' },
    extraA: { 'pair.portico.test': ['198.51.100.7', SERVER_IP] },
    aaaa: { 'v6only.portico.test': '2001:db8::1' },
  });
  silent = await startSilentDnsServer();
});
afterAll(async () => {
  await dns?.stop();
  await silent?.stop();
});

async function signedIn(app: TTestApp['app'], lang = 'en') {
  const client = new TestClient(app, { headers: { 'accept-language': lang } });
  expect((await client.register(newCredentials('dns'))).statusCode).toBe(201);
  return client;
}

describe.each(testDatabaseKinds())('POST /api/validate-dns on %s', (kind) => {
  let t: TTestApp;
  let timingOut: TTestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { config: { dnsServers: [dns.address] } });
    timingOut = await createTestApp(kind, { config: { dnsServers: [silent.address] } });
  });
  afterAll(async () => {
    await t?.close();
    await timingOut?.close();
  });

  it('is valid when the A record is the server IP', async () => {
    const client = await signedIn(t.app);
    const response = await client.write('POST', '/api/validate-dns', {
      domain: 'OK.portico.test',
      serverIp: SERVER_IP,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      isValid: true,
      resolvedIps: [SERVER_IP],
      expectedIp: SERVER_IP,
      error: null,
      text: null,
    });
  });

  it('is valid when the server IP is one of several A records, listing them all', async () => {
    const client = await signedIn(t.app);
    const response = await client.write('POST', '/api/validate-dns', {
      domain: 'pair.portico.test',
      serverIp: SERVER_IP,
    });
    expect(response.json()).toEqual({
      isValid: true,
      resolvedIps: ['198.51.100.7', SERVER_IP],
      expectedIp: SERVER_IP,
      error: null,
      text: null,
    });
  });

  it('names the addresses when the domain points elsewhere, in English and Spanish', async () => {
    for (const lang of ['en', 'es'] as const) {
      const client = await signedIn(t.app, lang);
      const response = await client.write('POST', '/api/validate-dns', {
        domain: 'elsewhere.portico.test',
        serverIp: SERVER_IP,
      });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body).toMatchObject({ isValid: false, resolvedIps: ['198.51.100.7'] });
      expect(body.error).toBe(
        translate(lang, 'checks.dns.pointsElsewhere', {
          domain: 'elsewhere.portico.test',
          addresses: '198.51.100.7',
          expectedIp: SERVER_IP,
        }),
      );
      expect(body.error).toContain('198.51.100.7');
      expect(body.error).toContain(SERVER_IP);
      // The same sentence as a text, whatever the language asked: a screen renders it in its own.
      expect(body.text).toEqual({
        key: 'checks.dns.pointsElsewhere',
        params: {
          domain: 'elsewhere.portico.test',
          expectedIp: SERVER_IP,
          addresses: '198.51.100.7',
        },
      });
    }
    expect(translate('es', 'checks.dns.pointsElsewhere')).not.toBe(
      translate('en', 'checks.dns.pointsElsewhere'),
    );
  });

  it('says the domain does not exist (NXDOMAIN)', async () => {
    const client = await signedIn(t.app);
    const response = await client.write('POST', '/api/validate-dns', {
      domain: 'missing.portico.test',
      serverIp: SERVER_IP,
    });
    expect(response.json()).toEqual({
      isValid: false,
      resolvedIps: [],
      expectedIp: SERVER_IP,
      error: translate('en', 'checks.dns.notFound', {
        domain: 'missing.portico.test',
        expectedIp: SERVER_IP,
      }),
      text: {
        key: 'checks.dns.notFound',
        params: { domain: 'missing.portico.test', expectedIp: SERVER_IP },
      },
    });
  });

  it('says there is no A record when the name exists without one', async () => {
    const client = await signedIn(t.app);
    const response = await client.write('POST', '/api/validate-dns', {
      domain: 'v6only.portico.test',
      serverIp: SERVER_IP,
    });
    expect(response.json()).toMatchObject({
      isValid: false,
      resolvedIps: [],
      error: translate('en', 'checks.dns.noARecord', {
        domain: 'v6only.portico.test',
        expectedIp: SERVER_IP,
      }),
    });
  });

  it('says the lookup timed out when the resolver never answers', async () => {
    const client = await signedIn(timingOut.app, 'es');
    const response = await client.write('POST', '/api/validate-dns', {
      domain: 'ok.portico.test',
      serverIp: SERVER_IP,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      isValid: false,
      resolvedIps: [],
      expectedIp: SERVER_IP,
      error: translate('es', 'checks.dns.timeout', { domain: 'ok.portico.test' }),
      text: { key: 'checks.dns.timeout', params: { domain: 'ok.portico.test' } },
    });
  });

  it('refuses bad input with the validation messages and answers 401 when signed out', async () => {
    const client = await signedIn(t.app);
    const bad = await client.write('POST', '/api/validate-dns', {
      domain: 'no_dots',
      serverIp: '300.1.1.1',
    });
    expect(bad.statusCode).toBe(400);
    const issues = bad.json().issues as { path: string; message: string }[];
    expect(issues).toEqual(
      expect.arrayContaining([
        { path: 'domain', message: 'Invalid domain format' },
        { path: 'serverIp', message: 'Invalid IP address format' },
      ]),
    );
    const empty = await client.write('POST', '/api/validate-dns', { domain: '', serverIp: '' });
    expect(empty.json().issues).toEqual(
      expect.arrayContaining([{ path: 'domain', message: 'This field is required' }]),
    );

    const anonymous = new TestClient(t.app, { headers: { 'accept-language': 'en' } });
    const response = await anonymous.write('POST', '/api/validate-dns', {
      domain: 'ok.portico.test',
      serverIp: SERVER_IP,
    });
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toBe(translate('en', 'errors.unauthenticated'));
    // Signed out, a bad body is not even looked at.
    const badSignedOut = await anonymous.write('POST', '/api/validate-dns', { domain: 'x' });
    expect(badSignedOut.statusCode).toBe(401);
  });

  it('limits each user to 30 lookups a minute, saying how long to wait', async () => {
    const client = await signedIn(t.app);
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const response = await client.write('POST', '/api/validate-dns', {
        domain: 'ok.portico.test',
        serverIp: SERVER_IP,
      });
      statuses.push(response.statusCode);
      if (response.statusCode === 429) {
        expect(response.json().message).toBe(
          translate('en', 'errors.rateLimited', { seconds: response.headers['retry-after']! }),
        );
      }
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(30);
    expect(statuses[30]).toBe(429);
    // Another user is not affected.
    const other = await signedIn(t.app);
    const response = await other.write('POST', '/api/validate-dns', {
      domain: 'ok.portico.test',
      serverIp: SERVER_IP,
    });
    expect(response.statusCode).toBe(200);
  });
});
