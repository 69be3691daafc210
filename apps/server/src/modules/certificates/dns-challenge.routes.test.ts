import { join } from 'node:path';
import { HEALTHY_DEBIAN_FACTS } from '@portico/shared/test/server-facts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RFC2136, RFC2136_SECRET } from '../../../test/support/dns-challenge-fixtures';
import {
  createProxy,
  proxyInput,
  seedServerSite,
  signedInClient,
  uniqueDomain,
  waitForStatus,
} from '../../../test/support/proxies-test-helpers';
import { removeTestTempDir, testTempDir } from '../../../test/support/temp-dir';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import type { TestClient } from '../../../test/support/test-client';
import { testDatabaseKinds } from '../../../test/support/test-database';
import { dnsChallenges, proxyConfigurations, sshServers } from '../../db/schema';
import { decryptSecret, encryptSecret, loadOrCreateKey } from '../../lib/secrets';
import { dnsChallengeAad } from './dns-challenge-secret';

const SECRET = RFC2136_SECRET;

describe.each(testDatabaseKinds())('a certificate by DNS-01 on %s', (kind) => {
  let t: TTestApp;
  let keyDir: string;
  let keyFile: string;
  beforeAll(async () => {
    keyDir = testTempDir('portico-dns01-');
    keyFile = join(keyDir, 'secret.key');
    // With a deploy worker: a run must refuse credentials entered for another server.
    t = await createTestApp(kind, { config: { secretKeyFile: keyFile } });
  });
  afterAll(async () => {
    await t?.close();
    removeTestTempDir(keyDir);
  });

  const path = (id: string) => `/api/proxy-configurations/${id}/certificate/dns`;
  const put = (client: TestClient, id: string, body: unknown, lang = 'en') =>
    client.write('PUT', path(id), body as never, { 'accept-language': lang });
  const storedRow = async (id: string) =>
    (
      await t.database.db.select().from(dnsChallenges).where(eq(dnsChallenges.configurationId, id))
    )[0];
  const wildcardProxy = (client: TestClient) =>
    createProxy(client, { domain: `*.${uniqueDomain('wild')}` });

  it('takes a wildcard proxy and its RFC 2136 credentials, sealed for its server, never answered', async () => {
    const { client } = await signedInClient(t);
    const { id, input } = await wildcardProxy(client);
    const response = await put(client, id, { credentials: RFC2136, includeApex: true });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      provider: 'rfc2136',
      includeApex: true,
      serverIp: input.serverIp,
    });
    expect(response.body).not.toContain(SECRET);
    const read = await client.request({ method: 'GET', url: path(id) });
    expect(read.json().dnsChallenge).toEqual(response.json());
    expect(read.body).not.toContain(SECRET);
    const row = await storedRow(id);
    expect(row!.credentialsEnc).not.toContain(SECRET);
    const key = loadOrCreateKey(keyFile);
    const open = decryptSecret(key, row!.credentialsEnc, dnsChallengeAad(id, input.serverIp));
    expect(JSON.parse(open)).toEqual(RFC2136);
    // Bound to the server address: for any other, it does not decrypt.
    expect(() =>
      decryptSecret(key, row!.credentialsEnc, dnsChallengeAad(id, '203.0.113.99')),
    ).toThrow();
  });

  it('takes cloudflare as the second provider', async () => {
    const { client } = await signedInClient(t);
    const { id } = await wildcardProxy(client);
    const credentials = { provider: 'cloudflare', apiToken: 'Ab3_def-ghijklmnopqrstuvwxyz0123' };
    const response = await put(client, id, { credentials });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ provider: 'cloudflare', includeApex: false });
  });

  it('refuses bad credentials in the caller’s language and writes nothing', async () => {
    const { client } = await signedInClient(t);
    const { id } = await wildcardProxy(client);
    const cases: [string, Record<string, unknown>, string, string, RegExp][] = [
      ['secret', { secret: 'not base64!' }, 'en', 'credentials.secret', /must be base64/],
      ['secret', { secret: 'abc\nx = y' }, 'es', 'credentials.secret', /debe estar en base64/],
      ['server', { server: 'ns1.example.com' }, 'en', 'credentials.server', /IPv4 or IPv6/],
      ['algorithm', { algorithm: 'HMAC-MD5' }, 'es', 'credentials.algorithm', /algoritmos TSIG/],
      ['port', { port: 70000 }, 'en', 'credentials.port', /./],
    ];
    for (const [what, change, lang, field, words] of cases) {
      const r = await put(client, id, { credentials: { ...RFC2136, ...change } }, lang);
      expect(r.statusCode, what).toBe(400);
      expect(r.json().code).toBe('validation_failed');
      const issue = r.json().issues.find((i: { path: string }) => i.path === field);
      expect(issue?.message, `${what}: ${r.body}`).toMatch(words);
      expect(r.body).not.toContain(SECRET);
    }
    const unknown = await put(client, id, { credentials: { provider: 'godaddy', key: 'x' } });
    expect(unknown.statusCode).toBe(400);
    expect(await storedRow(id)).toBeUndefined();
  });

  it('refuses a provider its saved server does not offer, in the caller’s language, writing nothing', async () => {
    const { client } = await signedInClient(t);
    const created = await client.write('POST', '/api/ssh-servers', {
      name: 'no-ovh',
      host: '203.0.113.41',
      username: 'root',
      password: 'Sup3r-Secret-SSH-pass',
    });
    expect(created.statusCode, created.body).toBe(201);
    const serverId = created.json().id as string;
    const {
      serverIp: _ip,
      sshUser: _u,
      sshPassword: _p,
      ...rest
    } = proxyInput({
      domain: `*.${uniqueDomain('offer')}`,
    });
    const proxy = await client.write('POST', '/api/proxy-configurations', {
      ...rest,
      sshServerId: serverId,
    });
    expect(proxy.statusCode, proxy.body).toBe(200);
    const id = proxy.json().id as string;
    const offers = async () =>
      (await client.request({ method: 'GET', url: path(id) })).json().providers as {
        provider: string;
        offer: string;
      }[];
    // Never checked: nothing is known, nothing is refused for it.
    expect(new Set((await offers()).map((p) => p.offer))).toEqual(new Set(['unknown']));
    await t.database.db
      .update(sshServers)
      .set({ facts: HEALTHY_DEBIAN_FACTS })
      .where(eq(sshServers.id, serverId));
    const byProvider = Object.fromEntries((await offers()).map((p) => [p.provider, p.offer]));
    expect(byProvider).toMatchObject({
      rfc2136: 'installed',
      cloudflare: 'offered',
      route53: 'offered',
      ovh: 'not_offered',
      gandi: 'not_offered',
    });
    const ovh = {
      provider: 'ovh',
      endpoint: 'ovh-eu',
      applicationKey: 'AbCdEf0123456789',
      applicationSecret: 'AbCdEf0123456789AbCdEf0123456789',
      consumerKey: 'ZyXwVu9876543210ZyXwVu9876543210',
    };
    for (const [lang, words] of [
      ['en', /does not offer python3-certbot-dns-ovh, certbot's plugin for OVH/],
      ['es', /no ofrece python3-certbot-dns-ovh, el plugin de certbot para OVH/],
    ] as const) {
      const refused = await put(client, id, { credentials: ovh }, lang);
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().text).toEqual({
        key: 'certificates.dns.providerNotOffered',
        params: { provider: 'OVH', package: 'python3-certbot-dns-ovh' },
      });
      expect(refused.json().message).toMatch(words);
      expect(refused.body).not.toContain(ovh.applicationSecret);
    }
    expect(await storedRow(id)).toBeUndefined();
    // One the server offers is taken.
    const route53 = {
      provider: 'route53',
      accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
      secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    };
    const taken = await put(client, id, { credentials: route53 });
    expect(taken.statusCode, taken.body).toBe(200);
    expect(taken.body).not.toContain(route53.secretAccessKey);
    expect((await storedRow(id))?.provider).toBe('route53');
  });

  it('refuses the apex on a plain domain, and another account’s proxy as not found', async () => {
    const { client } = await signedInClient(t);
    const { client: stranger } = await signedInClient(t);
    const { id } = await createProxy(client);
    const apex = await put(client, id, { credentials: RFC2136, includeApex: true }, 'es');
    expect(apex.statusCode).toBe(400);
    expect(apex.json().text).toEqual({ key: 'certificates.dns.apexNeedsWildcard' });
    expect(apex.json().message).toMatch(/^«Incluir también el dominio»/);
    expect((await put(stranger, id, { credentials: RFC2136 })).statusCode).toBe(404);
    expect(await storedRow(id)).toBeUndefined();
    // A plain name may use DNS-01 too.
    expect((await put(client, id, { credentials: RFC2136 })).statusCode).toBe(200);
  });

  it('refuses wildcards in the middle, over a public suffix, or not as a whole label', async () => {
    const { client } = await signedInClient(t);
    const cases: [string, string][] = [
      ['a.*.example.com', 'validation.dns01.wildcardForm'],
      ['*.com', 'validation.dns01.wildcardSuffix'],
      ['*.co.uk', 'validation.dns01.wildcardSuffix'],
      ['*example.com', 'validation.dns01.wildcardForm'],
    ];
    for (const [domain] of cases) {
      const r = await client.write('POST', '/api/proxy-configurations', {
        serverIp: '203.0.113.10',
        domain,
        sshUser: 'root',
        sshPassword: 'Sup3r-Secret-SSH-pass',
        email: 'admin@example.com',
      });
      expect(r.statusCode, domain).toBe(400);
      const issue = r.json().issues.find((i: { path: string }) => i.path === 'domain');
      expect(issue?.message, domain).toMatch(/wildcard/i);
    }
  });

  it('removes the credentials back to HTTP-01, except for a wildcard which needs them', async () => {
    const { client } = await signedInClient(t);
    const { id } = await createProxy(client);
    expect((await put(client, id, { credentials: RFC2136 })).statusCode).toBe(200);
    const removed = await client.write('DELETE', path(id));
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await storedRow(id)).toBeUndefined();
    const again = await client.write('DELETE', path(id));
    expect(again.statusCode).toBe(404);
    expect(again.json().text).toEqual({ key: 'certificates.dns.none' });
    const wild = await wildcardProxy(client);
    expect((await put(client, wild.id, { credentials: RFC2136 })).statusCode).toBe(200);
    const refused = await client.write('DELETE', path(wild.id), undefined, {
      'accept-language': 'es',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/^Un dominio comodín solo puede/);
    expect(await storedRow(wild.id)).toBeDefined();
  });

  it('never presents credentials to a server other than the one they were entered for', async () => {
    const { client } = await signedInClient(t);
    const { id } = await createProxy(client, {
      domain: `*.${uniqueDomain('moved')}`,
      serverIp: '127.0.0.1',
      sshPort: 1,
    });
    expect((await put(client, id, { credentials: RFC2136 })).statusCode).toBe(200);
    // Credentials of another address (sealed for it), now beside this proxy on 127.0.0.1.
    const key = loadOrCreateKey(keyFile);
    const elsewhere = encryptSecret(
      key,
      JSON.stringify(RFC2136),
      dnsChallengeAad(id, '203.0.113.99'),
    );
    await t.database.db
      .update(dnsChallenges)
      .set({ serverIp: '203.0.113.99', credentialsEnc: elsewhere })
      .where(eq(dnsChallenges.configurationId, id));
    await t.database.db
      .update(proxyConfigurations)
      .set({ status: 'completed' })
      .where(eq(proxyConfigurations.id, id));
    await seedServerSite(t, id);
    const started = await client.write('POST', `/api/proxy-configurations/${id}/redeploy`);
    expect(started.statusCode, started.body).toBe(202);
    expect((await waitForStatus(client, id, (s) => s !== 'deploying')).status).toBe('failed');
    const lines = (
      await client.request({ method: 'GET', url: `/api/deployment-logs/${id}` })
    ).json();
    expect(lines.at(-1)).toMatchObject({
      level: 'error',
      message: expect.stringMatching(/^The DNS provider credentials of this proxy cannot be/),
    });
    expect(JSON.stringify(lines)).not.toContain(SECRET);
  });
});
