// The admin API: role enforcement on every route, the stats and lists with their order; on
// PGlite and on PostgreSQL when TEST_DATABASE_URL is set.
import { ZAdminProxyRow, ZAdminUser, ZProxiesByUser } from '@portico/shared/admin/api';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { anonymousClient, namedClient } from '../../../test/support/admin-test-helpers';
import { createProxy, seedServerSite } from '../../../test/support/proxies-test-helpers';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import type { TestClient } from '../../../test/support/test-client';
import { testDatabaseKinds } from '../../../test/support/test-database';
import { proxyConfigurations } from '../../db/schema';

type TRoute = { method: 'GET' | 'PUT' | 'PATCH'; url: string; body?: Record<string, unknown> };

describe.each(testDatabaseKinds())('admin API on %s', (kind) => {
  let t: TTestApp;
  let admin: Awaited<ReturnType<typeof namedClient>>;
  let member: Awaited<ReturnType<typeof namedClient>>;

  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await namedClient(t, 'adm', 'admin');
    member = await namedClient(t, 'mem');
  });
  afterAll(async () => t?.close());

  function send(client: TestClient, route: TRoute) {
    return route.method === 'GET'
      ? client.request({ method: 'GET', url: route.url })
      : client.write(route.method, route.url, route.body);
  }

  it('answers 401 signed out, 403 to users and 200 to admins on every admin route', async () => {
    const { id: proxyId, input } = await createProxy(member.client);
    const routes: TRoute[] = [
      { method: 'GET', url: '/api/admin/stats/users' },
      { method: 'GET', url: '/api/admin/stats/proxies-by-user' },
      { method: 'GET', url: '/api/admin/all-proxies' },
      { method: 'GET', url: '/api/admin/audit-log' },
      { method: 'GET', url: '/api/admin/users' },
      {
        method: 'PUT',
        url: `/api/admin/proxy-configurations/${proxyId}`,
        body: {
          domain: input.domain,
          targetServer: input.targetServer,
          serverIp: input.serverIp,
          sshUser: 'root',
          sshPort: 22,
        },
      },
      { method: 'PATCH', url: `/api/admin/users/${member.user.id}/role`, body: { role: 'user' } },
    ];
    for (const route of routes) {
      const anonymous = await send(anonymousClient(t), route);
      expect([route.url, anonymous.statusCode]).toEqual([route.url, 401]);
      expect(anonymous.json().code).toBe('unauthenticated');
      const user = await send(member.client, route);
      expect([route.url, user.statusCode]).toEqual([route.url, 403]);
      expect(user.json().code).toBe('forbidden');
      const ok = await send(admin.client, route);
      expect([route.url, ok.statusCode]).toEqual([route.url, 200]);
    }
  });

  it('refuses admin writes without the CSRF token', async () => {
    const response = await admin.client.request({
      method: 'PATCH',
      url: `/api/admin/users/${member.user.id}/role`,
      payload: { role: 'user' },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().code).toBe('csrf_invalid');
  });

  it('counts every user', async () => {
    const before = (
      await admin.client.request({ method: 'GET', url: '/api/admin/stats/users' })
    ).json().totalUsers as number;
    await namedClient(t, 'cnt');
    await namedClient(t, 'cnt');
    const response = await admin.client.request({ method: 'GET', url: '/api/admin/stats/users' });
    expect(response.json()).toEqual({ totalUsers: before + 2 });
  });

  it('lists users with proxies, most proxies first, then by username', async () => {
    const many = await namedClient(t, 'pbuzz');
    const b = await namedClient(t, 'pbub');
    const a = await namedClient(t, 'pbua');
    const none = await namedClient(t, 'pbunone');
    for (const c of [many, many, many, b, a]) await createProxy(c.client);

    const response = await admin.client.request({
      method: 'GET',
      url: '/api/admin/stats/proxies-by-user',
    });
    expect(response.statusCode).toBe(200);
    const list = ZProxiesByUser.parse(response.json());
    const mine = list.filter((row) => [many, b, a, none].some((c) => c.user.id === row.userId));
    expect(mine).toEqual([
      { userId: many.user.id, username: many.user.username, email: many.user.email, proxyCount: 3 },
      { userId: a.user.id, username: a.user.username, email: a.user.email, proxyCount: 1 },
      { userId: b.user.id, username: b.user.username, email: b.user.email, proxyCount: 1 },
    ]);
    expect(list.every((row) => row.proxyCount > 0)).toBe(true);
    const counts = list.map((row) => row.proxyCount);
    expect(counts).toEqual([...counts].sort((x, y) => y - x));
  });

  it('lists every proxy with its owner, newest first', async () => {
    const owner1 = await namedClient(t, 'own');
    const owner2 = await namedClient(t, 'own');
    const first = await createProxy(owner1.client);
    const second = await createProxy(owner2.client, { targetServer: 'backend.local:3000' });

    const response = await admin.client.request({ method: 'GET', url: '/api/admin/all-proxies' });
    expect(response.statusCode).toBe(200);
    const rows = z.array(ZAdminProxyRow).parse(response.json());
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(rows[0]).toEqual({
      id: second.id,
      domain: second.input.domain,
      targetServer: 'backend.local:3000',
      status: 'pending',
      serving: null,
      adoptedFile: null,
      lastFailure: null,
      createdAt: expect.any(String),
      userId: owner2.user.id,
      username: owner2.user.username,
      email: owner2.user.email,
    });
    expect(rows[1]).toMatchObject({ id: first.id, userId: owner1.user.id });
    const times = rows.map((row) => Date.parse(row.createdAt));
    expect(times).toEqual([...times].sort((x, y) => y - x));
    expect(response.body).not.toMatch(/sshPassword|Enc"/);
  });

  it("says of each proxy what its owner is told: what the server serves and why the last run failed, in the reader's language", async () => {
    const owner = await namedClient(t, 'srv');
    const { id } = await createProxy(owner.client);
    await seedServerSite(t, id, {
      files: ['/etc/nginx/sites-available/proxy-x', '/etc/nginx/sites-enabled/proxy-x'],
      enabled: true,
      https: true,
      certificate: { name: 'x', expiresAt: null },
    });
    const text = { key: 'deployLog.script.exited', params: { code: '3' } };
    await t.database.db
      .update(proxyConfigurations)
      .set({
        status: 'failed',
        lastFailure: {
          deploymentId: null,
          code: 'custom_script_failed',
          step: 'custom-script',
          text,
          message: 'stored words',
          at: '2026-11-22T16:05:00.000Z',
        },
      })
      .where(eq(proxyConfigurations.id, id));
    for (const [language, words] of [
      ['en', /^The custom script exited with status 3/],
      ['es', /^El script personalizado terminó con el código 3/],
    ] as const) {
      const response = await admin.client.request({
        method: 'GET',
        url: '/api/admin/all-proxies',
        headers: { 'accept-language': language },
      });
      const row = z
        .array(ZAdminProxyRow)
        .parse(response.json())
        .find((r) => r.id === id);
      expect(row).toMatchObject({
        status: 'failed',
        serving: 'https',
        lastFailure: { step: 'custom-script', text },
      });
      expect(row?.lastFailure?.message).toMatch(words);
    }
  });

  it('names an adopted site by its hand-written file and says it is served by it', async () => {
    const owner = await namedClient(t, 'adp');
    const { id } = await createProxy(owner.client);
    const own = await createProxy(owner.client);
    const file = '/etc/nginx/sites-enabled/shop';
    await t.database.db
      .update(proxyConfigurations)
      .set({ status: 'completed', origin: 'adopted', adoptedFile: file, sslConfigured: false })
      .where(eq(proxyConfigurations.id, id));
    const response = await admin.client.request({ method: 'GET', url: '/api/admin/all-proxies' });
    const rows = z.array(ZAdminProxyRow).parse(response.json());
    // Served over HTTP by its own file, though Portico's record of sites is empty.
    expect(rows.find((r) => r.id === id)).toMatchObject({ adoptedFile: file, serving: 'http' });
    expect(rows.find((r) => r.id === own.id)?.adoptedFile).toBeNull();
  });

  it('lists users with their role and proxy count', async () => {
    const owner = await namedClient(t, 'lst');
    await createProxy(owner.client);
    await createProxy(owner.client);
    const response = await admin.client.request({ method: 'GET', url: '/api/admin/users' });
    expect(response.statusCode).toBe(200);
    const list = z.array(ZAdminUser).parse(response.json());
    expect(list.find((u) => u.id === owner.user.id)).toEqual({
      id: owner.user.id,
      username: owner.user.username,
      email: owner.user.email,
      role: 'user',
      proxyCount: 2,
      createdAt: expect.any(String),
    });
    expect(list.find((u) => u.id === admin.user.id)?.role).toBe('admin');
    expect(response.body).not.toMatch(/password/i);
  });
});
