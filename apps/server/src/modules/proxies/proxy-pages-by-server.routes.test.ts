// A saved server's proxies in pages (the `sshServerId` list filter, docs/PRODUCT.md#ssh-servers):
// the server page's list walks only that server's proxies, keyset and counted like home's; the
// owner's list never shows another account's server, an admin's list shows any; a bad id is a
// 400 in the reader's language. On PGlite, and on PostgreSQL when TEST_DATABASE_URL is set.
import { ZAdminProxyPage } from '@portico/shared/admin/api';
import { ZProxyPage } from '@portico/shared/proxy/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newestFirstIds } from '../../../test/support/keyset-order';
import { signedInClient } from '../../../test/support/proxies-test-helpers';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import type { TestClient } from '../../../test/support/test-client';
import { testDatabaseKinds } from '../../../test/support/test-database';
import { proxyConfigurations, sshServers } from '../../db/schema';

let counter = 0;

function proxyRow(userId: string, sshServerId: string | null, at: Date) {
  counter += 1;
  return {
    userId,
    sshServerId,
    domain: `bysrv${process.pid}n${counter}.example.com`,
    serverIp: '203.0.113.20',
    email: 'owner@example.com',
    targetServer: `http://10.0.0.1:${3000 + counter}`,
    status: counter % 3 === 0 ? ('failed' as const) : ('deployed' as const),
    createdAt: at,
    updatedAt: at,
  };
}

describe.each(testDatabaseKinds())('a saved server’s proxies in pages on %s', (kind) => {
  let t: TTestApp;
  let owner: { client: TestClient; user: { id: string } };
  let other: { client: TestClient; user: { id: string } };
  let admin: { client: TestClient; user: { id: string } };
  let web: string;
  let backup: string;
  let theirs: string;
  /** The 60 proxies on `web`, newest first. */
  let onWeb: string[];

  beforeAll(async () => {
    t = await createTestApp(kind, { deploy: { workers: 0 } });
    owner = await signedInClient(t, 'user', '198.18.201.1');
    other = await signedInClient(t, 'user', '198.18.201.2');
    admin = await signedInClient(t, 'admin', '198.18.201.3');
    const server = (userId: string, name: string) => ({
      userId,
      name,
      host: '203.0.113.20',
      username: 'deploy',
    });
    const servers = await t.database.db
      .insert(sshServers)
      .values([
        server(owner.user.id, 'web'),
        server(owner.user.id, 'backup'),
        server(other.user.id, 'theirs'),
      ])
      .returning({ id: sshServers.id });
    [web, backup, theirs] = servers.map((s) => s.id) as [string, string, string];
    const base = Date.now() - 86_400_000;
    // Pairs share a creation time: the id orders them, and the walk must lose neither.
    const rows = [
      ...Array.from({ length: 60 }, (_, i) =>
        proxyRow(owner.user.id, web, new Date(base + Math.floor(i / 2) * 60_000)),
      ),
      ...Array.from({ length: 5 }, (_, i) => proxyRow(owner.user.id, backup, new Date(base + i))),
      proxyRow(owner.user.id, null, new Date(base)),
      ...Array.from({ length: 3 }, (_, i) => proxyRow(other.user.id, theirs, new Date(base + i))),
    ];
    const inserted = await t.database.db.insert(proxyConfigurations).values(rows).returning({
      id: proxyConfigurations.id,
      sshServerId: proxyConfigurations.sshServerId,
      createdAt: proxyConfigurations.createdAt,
    });
    onWeb = newestFirstIds(inserted.filter((r) => r.sshServerId === web));
  });
  afterAll(async () => t?.close());

  const get = async (client: TestClient, url: string, language = 'en') => {
    const answer = await client.request({
      method: 'GET',
      url,
      headers: { 'accept-language': language },
    });
    return { status: answer.statusCode, body: answer.json() };
  };
  const mine = (query: string) => get(owner.client, `/api/user/proxy-configurations?${query}`);

  it('walks one server’s proxies a page at a time, newest first, each once, counted', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const { status, body } = await mine(
        `sshServerId=${web}&limit=25${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(status).toBe(200);
      const page = ZProxyPage.parse(body);
      expect(page.total).toBe(60);
      expect(page.counts.status.failed).toBe(20);
      expect(page.items.every((p) => p.sshServerId === web)).toBe(true);
      seen.push(...page.items.map((p) => p.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(onWeb);
    const other = ZProxyPage.parse((await mine(`sshServerId=${backup.toUpperCase()}`)).body);
    expect(other.total).toBe(5);
    expect(other.items.every((p) => p.sshServerId === backup)).toBe(true);
  });

  it('combines with the status filter and the search, and sorts by expiry too', async () => {
    const failed = ZProxyPage.parse((await mine(`sshServerId=${web}&status=failed`)).body);
    expect(failed.total).toBe(20);
    expect(failed.items.every((p) => p.status === 'failed' && p.sshServerId === web)).toBe(true);
    const domain = (await t.database.db.query.proxyConfigurations.findFirst({
      where: (p, { eq }) => eq(p.id, onWeb[7]!),
    }))!.domain;
    const found = ZProxyPage.parse((await mine(`sshServerId=${backup}&q=${domain}`)).body);
    expect(found.total).toBe(0);
    const here = ZProxyPage.parse((await mine(`sshServerId=${web}&q=${domain}`)).body);
    expect(here.items.map((p) => p.id)).toEqual([onWeb[7]]);
    const byExpiry = ZProxyPage.parse(
      (await mine(`sshServerId=${web}&sort=expiry&limit=200`)).body,
    );
    expect(new Set(byExpiry.items.map((p) => p.id))).toEqual(new Set(onWeb));
  });

  it('gives the owner nothing of another account’s server; an admin sees any server’s', async () => {
    const snooped = await mine(`sshServerId=${theirs}`);
    expect(snooped.status).toBe(200);
    expect(ZProxyPage.parse(snooped.body)).toMatchObject({ items: [], total: 0 });
    const asAdmin = ZAdminProxyPage.parse(
      (await get(admin.client, `/api/admin/all-proxies?sshServerId=${theirs}`)).body,
    );
    expect(asAdmin.total).toBe(3);
    expect(asAdmin.items.every((p) => p.userId === other.user.id)).toBe(true);
    // The admin route stays the admin's: a user asking it is refused.
    expect((await get(owner.client, `/api/admin/all-proxies?sshServerId=${theirs}`)).status).toBe(
      403,
    );
  });

  it('refuses an id that is not one, in the reader’s language', async () => {
    for (const [language, words] of [
      ['en', 'Invalid identifier'],
      ['es', 'Identificador no válido'],
    ] as const) {
      const answer = await get(
        owner.client,
        '/api/user/proxy-configurations?sshServerId=web%27%20or%201=1',
        language,
      );
      expect(answer.status).toBe(400);
      expect(answer.body.issues[0].message).toBe(words);
    }
  });
});
