import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RFC2136 } from '../../../test/support/dns-challenge-fixtures';
import {
  createProxy,
  markDeployed,
  signedInClient,
  uniqueDomain,
} from '../../../test/support/proxies-test-helpers';
import { removeTestTempDir, testTempDir } from '../../../test/support/temp-dir';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import type { TestClient } from '../../../test/support/test-client';
import { testDatabaseKinds } from '../../../test/support/test-database';
import { proxyConfigurations, wildcardCertificateUses } from '../../db/schema';

describe.each(testDatabaseKinds())('a wildcard certificate of the same server on %s', (kind) => {
  let t: TTestApp;
  let keyDir: string;
  beforeAll(async () => {
    keyDir = testTempDir('portico-wildreuse-');
    t = await createTestApp(kind, { config: { secretKeyFile: join(keyDir, 'secret.key') } });
  });
  afterAll(async () => {
    await t?.close();
    removeTestTempDir(keyDir);
  });

  const choices = (client: TestClient, id: string) =>
    client.request({ method: 'GET', url: `/api/proxy-configurations/${id}/certificate/wildcards` });
  const use = (client: TestClient, id: string, holderId: string, lang = 'en') =>
    client.write(
      'PUT',
      `/api/proxy-configurations/${id}/certificate/wildcard`,
      { holderId },
      { 'accept-language': lang },
    );
  const stopUsing = (client: TestClient, id: string, lang = 'en') =>
    client.write('DELETE', `/api/proxy-configurations/${id}/certificate/wildcard`, undefined, {
      'accept-language': lang,
    });
  const usesOf = (holderId: string) =>
    t.database.db
      .select()
      .from(wildcardCertificateUses)
      .where(eq(wildcardCertificateUses.holderId, holderId));

  /** `*.<base>` deployed by DNS-01, its certificate valid for 60 more days. */
  async function holder(client: TestClient, overrides: Record<string, unknown> = {}) {
    const base = uniqueDomain('wild');
    const { id, input } = await createProxy(client, { domain: `*.${base}`, ...overrides });
    const dns = await client.write('PUT', `/api/proxy-configurations/${id}/certificate/dns`, {
      credentials: RFC2136,
    });
    expect(dns.statusCode, dns.body).toBe(200);
    await markDeployed(t, id);
    await t.database.db
      .update(proxyConfigurations)
      .set({ certificateExpiresAt: new Date(Date.now() + 60 * 86_400_000) })
      .where(eq(proxyConfigurations.id, id));
    return { id, base, input };
  }

  it('offers the live wildcard of the same server and serves a subdomain with it', async () => {
    const { client } = await signedInClient(t);
    const wild = await holder(client);
    const { id } = await createProxy(client, { domain: `c.${wild.base}` });
    const offered = await choices(client, id);
    expect(offered.statusCode, offered.body).toBe(200);
    const certificate = {
      holderId: wild.id,
      domain: `*.${wild.base}`,
      expiresAt: expect.any(String),
    };
    expect(offered.json()).toEqual({ current: null, available: [certificate] });
    const used = await use(client, id, wild.id);
    expect(used.statusCode, used.body).toBe(200);
    expect(used.json()).toEqual({ current: certificate, available: [certificate] });
    expect((await choices(client, id)).json().current).toEqual(certificate);
    // Before a proxy is saved (the wizard): by name and server, the caller's own only.
    const offer = (c: TestClient, serverIp: string) =>
      c.request({
        method: 'GET',
        url: `/api/certificates/wildcards?domain=d.${wild.base}&serverIp=${serverIp}`,
      });
    const byName = await offer(client, wild.input.serverIp);
    expect(byName.statusCode, byName.body).toBe(200);
    expect(byName.json()).toEqual({ available: [certificate] });
    expect((await offer(client, '198.51.100.7')).json()).toEqual({ available: [] });
    const { client: stranger } = await signedInClient(t);
    expect((await offer(stranger, wild.input.serverIp)).json()).toEqual({ available: [] });
    expect(await usesOf(wild.id)).toEqual([
      expect.objectContaining({ configurationId: id, holderId: wild.id }),
    ]);
  });

  it('refuses a missing, another owner’s, another server’s, an uncovering or an unserved wildcard, writing nothing', async () => {
    const { client } = await signedInClient(t);
    const { client: stranger } = await signedInClient(t);
    const wild = await holder(client);
    const { id } = await createProxy(client, { domain: `c.${wild.base}` });

    const missing = await use(client, id, randomUUID());
    expect(missing.statusCode).toBe(404);

    const theirs = await holder(stranger);
    const mineUnderTheirs = await createProxy(client, { domain: `c.${theirs.base}` });
    expect((await use(client, mineUnderTheirs.id, theirs.id)).statusCode).toBe(404);
    expect((await choices(client, mineUnderTheirs.id)).json().available).toEqual([]);
    // Nor may a stranger read or set another's proxy.
    expect((await use(stranger, id, wild.id)).statusCode).toBe(404);
    expect((await choices(stranger, id)).statusCode).toBe(404);

    const far = await holder(client, { serverIp: '198.51.100.7' });
    const near = await createProxy(client, { domain: `c.${far.base}` });
    const otherServer = await use(client, near.id, far.id, 'es');
    expect(otherServer.statusCode).toBe(409);
    expect(otherServer.json().text).toEqual({
      key: 'certificates.wildcard.otherServer',
      params: { domain: `c.${far.base}`, wildcard: `*.${far.base}`, serverIp: '198.51.100.7' },
    });
    expect(otherServer.json().message).toMatch(
      /^\*\.\S+ está en otro servidor \(198\.51\.100\.7\)/,
    );
    expect((await choices(client, near.id)).json().available).toEqual([]);

    const deep = await createProxy(client, { domain: `a.b.${wild.base}` });
    const notCovered = await use(client, deep.id, wild.id);
    expect(notCovered.statusCode).toBe(400);
    expect(notCovered.json().text.key).toBe('certificates.wildcard.notCovered');
    expect(notCovered.json().message).toContain(`does not cover a.b.${wild.base}`);
    const notCoveredEs = await use(client, deep.id, wild.id, 'es');
    expect(notCoveredEs.json().message).toContain(`no cubre a.b.${wild.base}`);
    expect((await use(client, wild.id, wild.id)).statusCode).toBe(400);

    const undeployed = await createProxy(client, { domain: `*.${uniqueDomain('new')}` });
    const base = undeployed.input.domain.slice(2);
    const under = await createProxy(client, { domain: `c.${base}` });
    const notLive = await use(client, under.id, undeployed.id);
    expect(notLive.statusCode).toBe(409);
    expect(notLive.json().text.key).toBe('certificates.wildcard.notLive');

    for (const holderId of [wild.id, theirs.id, far.id, undeployed.id]) {
      expect(await usesOf(holderId)).toEqual([]);
    }
  });

  it('refuses removing or renaming the holder while a proxy uses it, naming that proxy', async () => {
    const { client } = await signedInClient(t);
    const wild = await holder(client);
    const { id } = await createProxy(client, { domain: `c.${wild.base}` });
    expect((await use(client, id, wild.id)).statusCode).toBe(200);

    const removal = await client.write(
      'DELETE',
      `/api/proxy-configurations/${wild.id}?removeFromServer=false`,
      undefined,
      { 'accept-language': 'es' },
    );
    expect(removal.statusCode, removal.body).toBe(409);
    expect(removal.json().code).toBe('wildcard_in_use');
    expect(removal.json().message).toContain(`también sirve c.${wild.base}`);
    const renamed = await client.write('PUT', `/api/user/proxy-configurations/${wild.id}`, {
      domain: `*.${uniqueDomain('renamed')}`,
      targetServer: wild.input.targetServer,
      serverIp: wild.input.serverIp,
      sshUser: 'root',
      sshPort: 22,
    });
    expect(renamed.statusCode, renamed.body).toBe(409);
    expect(renamed.json().text).toEqual({
      key: 'certificates.wildcard.inUse',
      params: { domain: `*.${wild.base}`, proxies: `c.${wild.base}` },
    });
    // Renewing belongs to the holder.
    const renew = await client.write('POST', `/api/proxy-configurations/${id}/certificate/renew`);
    expect(renew.statusCode).toBe(409);
    expect(renew.json().text.key).toBe('certificates.wildcard.noActions');

    expect((await stopUsing(client, id)).statusCode).toBe(200);
    const again = await stopUsing(client, id, 'es');
    expect(again.statusCode).toBe(404);
    expect(again.json().text).toEqual({ key: 'certificates.wildcard.none' });
    const free = await client.write(
      'DELETE',
      `/api/proxy-configurations/${wild.id}?removeFromServer=false`,
    );
    expect(free.statusCode, free.body).toBe(200);
  });

  it('forgets the use with the proxy that made it', async () => {
    const { client } = await signedInClient(t);
    const wild = await holder(client);
    const { id } = await createProxy(client, { domain: `c.${wild.base}` });
    expect((await use(client, id, wild.id)).statusCode).toBe(200);
    const gone = await client.write(
      'DELETE',
      `/api/proxy-configurations/${id}?removeFromServer=false`,
    );
    expect(gone.statusCode, gone.body).toBe(200);
    expect(await usesOf(wild.id)).toEqual([]);
  });
});
