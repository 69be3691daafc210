// The admin's lists in pages: every user's proxies and the users, walked with a cursor, found by
// `q`, with their counts; the whole lists unchanged without list parameters. On PGlite and on
// PostgreSQL when TEST_DATABASE_URL is set (where other files' rows share the tables: each
// check finds its own rows by a marker).
import { ZAdminProxyPage, ZAdminUserPage } from '@portico/shared/admin/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namedClient } from '../../../test/support/admin-test-helpers';
import { createProxy } from '../../../test/support/proxies-test-helpers';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import { testDatabaseKinds } from '../../../test/support/test-database';
import { proxyConfigurations } from '../../db/schema';

describe.each(testDatabaseKinds())('admin lists in pages on %s', (kind) => {
  let t: TTestApp;
  let admin: Awaited<ReturnType<typeof namedClient>>;
  const marker = `adm${process.pid}${kind.slice(0, 2)}`;

  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await namedClient(t, 'pgadm', 'admin');
  });
  afterAll(async () => t?.close());

  const get = (url: string, language = 'en') =>
    admin.client.request({ method: 'GET', url, headers: { 'accept-language': language } });

  it('pages every user’s proxies with a cursor, found by q, with counts', async () => {
    const owners = [await namedClient(t, 'pga'), await namedClient(t, 'pgb')];
    const at = Date.now() - 100_000;
    await t.database.db.insert(proxyConfigurations).values(
      Array.from({ length: 23 }, (_, i) => ({
        userId: owners[i % 2]!.user.id,
        domain: `${marker}-${i}.example.com`,
        serverIp: '203.0.113.20',
        email: 'o@example.com',
        status: i < 3 ? ('failed' as const) : ('pending' as const),
        createdAt: new Date(at + Math.floor(i / 3) * 1000),
      })),
    );
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response = await get(
        `/api/admin/all-proxies?q=${marker}&limit=10${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(response.statusCode).toBe(200);
      const body = ZAdminProxyPage.parse(response.json());
      expect(body.total).toBe(23);
      expect(body.counts.status).toMatchObject({ failed: 3, pending: 20 });
      seen.push(...body.items.map((item) => item.domain));
      cursor = body.nextCursor;
      pages += 1;
    } while (cursor && pages < 5);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(23);
    expect(seen.every((domain) => domain.startsWith(`${marker}-`))).toBe(true);
    const failed = ZAdminProxyPage.parse(
      (await get(`/api/admin/all-proxies?q=${marker}&status=failed`)).json(),
    );
    expect(failed.items.map((item) => item.domain).sort()).toEqual(
      [0, 1, 2].map((i) => `${marker}-${i}.example.com`),
    );
    // Without list parameters: the whole list, as an array.
    const whole = (await get('/api/admin/all-proxies')).json();
    expect(Array.isArray(whole)).toBe(true);
    expect(whole.filter((p: { domain: string }) => p.domain.startsWith(`${marker}-`))).toHaveLength(
      23,
    );
  });

  it('pages the users, oldest first, found by username or e-mail, with counts per role', async () => {
    const prefix = `pgu${kind.slice(0, 2)}`;
    const made = [];
    for (let i = 0; i < 5; i += 1) made.push(await namedClient(t, prefix));
    await createProxy(made[1]!.client);
    await createProxy(made[1]!.client);
    const first = ZAdminUserPage.parse(
      (await get(`/api/admin/users?q=${prefix}${process.pid}&limit=2`)).json(),
    );
    expect(first.total).toBe(5);
    expect(first.counts.role).toEqual({ user: 5, admin: 0 });
    const names = first.items.map((u) => u.username);
    let cursor = first.nextCursor;
    while (cursor) {
      const next = ZAdminUserPage.parse(
        (await get(`/api/admin/users?q=${prefix}${process.pid}&limit=2&cursor=${cursor}`)).json(),
      );
      names.push(...next.items.map((u) => u.username));
      cursor = next.nextCursor;
    }
    expect(names).toEqual(made.map((m) => m.user.username));
    // Each counted as its own, on the page as in the whole list.
    expect(first.items.map((u) => u.proxyCount)).toEqual([0, 2]);
    const admins = ZAdminUserPage.parse((await get('/api/admin/users?role=admin')).json());
    expect(admins.items.every((u) => u.role === 'admin')).toBe(true);
    expect(admins.items.map((u) => u.id)).toContain(admin.user.id);
    expect(Array.isArray((await get('/api/admin/users')).json())).toBe(true);
    const bad = await get('/api/admin/users?limit=500', 'es');
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('limit debe ser un número entero de 1 a 200');
  });
});
