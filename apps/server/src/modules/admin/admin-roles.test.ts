// Promote and demote from the web: never the last admin, audited, effective at once; on PGlite
// and on PostgreSQL when TEST_DATABASE_URL is set. Each case starts from its own database so
// the number of admins is known.
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { namedClient } from '../../../test/support/admin-test-helpers';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import { testDatabaseKinds } from '../../../test/support/test-database';
import { users } from '../../db/schema';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describe.each(testDatabaseKinds())('admin role changes on %s', (kind) => {
  let t: TTestApp;
  beforeEach(async () => {
    t = await createTestApp(kind);
  });
  afterEach(async () => t?.close());

  const setRole = (
    actor: Awaited<ReturnType<typeof namedClient>>,
    id: string,
    role: string,
    language = 'en',
  ) =>
    actor.client.write(
      'PATCH',
      `/api/admin/users/${id}/role`,
      { role },
      {
        'accept-language': language,
      },
    );

  it('promotes a user, who can then use the admin routes, and audits it', async () => {
    const admin = await namedClient(t, 'adm', 'admin');
    const member = await namedClient(t, 'mem');
    expect(
      (await member.client.request({ method: 'GET', url: '/api/admin/users' })).statusCode,
    ).toBe(403);

    const response = await setRole(admin, member.user.id, 'admin');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: member.user.id, role: 'admin', proxyCount: 0 });
    expect(
      (await member.client.request({ method: 'GET', url: '/api/admin/users' })).statusCode,
    ).toBe(200);

    const trail = await admin.client.request({
      method: 'GET',
      url: `/api/admin/audit-log?userId=${member.user.id}`,
    });
    expect(trail.json().entries).toEqual([
      expect.objectContaining({
        actorId: admin.user.id,
        action: 'admin.user.role',
        targetType: 'user',
        targetId: member.user.id,
        targetOwnerId: member.user.id,
        changes: [{ field: 'role', before: 'user', after: 'admin' }],
      }),
    ]);
  });

  it('refuses to demote the last admin, in the caller language, and keeps the role', async () => {
    const admin = await namedClient(t, 'adm', 'admin');
    const en = await setRole(admin, admin.user.id, 'user');
    expect(en.statusCode).toBe(409);
    expect(en.json()).toMatchObject({
      code: 'last_admin',
      message:
        'Portico needs at least one administrator: promote another account before removing this one.',
    });
    const es = await setRole(admin, admin.user.id, 'user', 'es');
    expect(es.statusCode).toBe(409);
    expect(es.json().message).toBe(
      'Portico necesita al menos un administrador: asciende otra cuenta antes de quitar esta.',
    );
    const list = await admin.client.request({ method: 'GET', url: '/api/admin/users' });
    expect(list.statusCode).toBe(200);
    expect(list.json()[0]).toMatchObject({ id: admin.user.id, role: 'admin' });
  });

  it('lets an admin demote themself when another admin exists, effective at once', async () => {
    const first = await namedClient(t, 'adm', 'admin');
    const second = await namedClient(t, 'adm', 'admin');
    const response = await setRole(first, first.user.id, 'user');
    expect(response.statusCode).toBe(200);
    expect(response.json().role).toBe('user');
    // The next request already sees the new role (no cached admin row).
    expect(
      (await first.client.request({ method: 'GET', url: '/api/admin/users' })).statusCode,
    ).toBe(403);
    // Now the second is the last one.
    const last = await setRole(second, second.user.id, 'user');
    expect(last.statusCode).toBe(409);
    expect(last.json().code).toBe('last_admin');
  });

  it('never leaves zero admins when two admins demote each other at once', async () => {
    const a = await namedClient(t, 'adm', 'admin');
    const b = await namedClient(t, 'adm', 'admin');
    await Promise.all([a.client.fetchCsrfToken(), b.client.fetchCsrfToken()]);
    const results = await Promise.all([
      setRole(a, b.user.id, 'user'),
      setRole(b, a.user.id, 'user'),
    ]);
    // One wins; the other is refused (409), or 403 when its caller was demoted before it ran.
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes[0]).toBe(200);
    expect([403, 409]).toContain(codes[1]);
    const admins = await t.database.db.select().from(users).where(eq(users.role, 'admin'));
    expect(admins).toHaveLength(1);
  });

  it('answers 404 for an unknown user and 400 for an unknown role', async () => {
    const admin = await namedClient(t, 'adm', 'admin');
    expect((await setRole(admin, UNKNOWN_ID, 'admin')).statusCode).toBe(404);
    const bad = await setRole(admin, admin.user.id, 'owner');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('validation_failed');
  });
});
