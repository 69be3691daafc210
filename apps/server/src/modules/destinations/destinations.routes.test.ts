// Destination servers over the API: the list every signed-in user reads, and admin CRUD with
// role enforcement; a saved destination is probed at once (a real listener on 127.0.0.1 and a
// closed port), without the minute's cron; on PGlite and on PostgreSQL when TEST_DATABASE_URL
// is set.
import { translate } from '@portico/shared/i18n/translate';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestEndpoints } from '../../../test/peers/test-endpoints';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import { newCredentials, TestClient } from '../../../test/support/test-client';
import { testDatabaseKinds } from '../../../test/support/test-database';
import { destinationServers, users } from '../../db/schema';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

const endpoints = useTestEndpoints();

describe.each(testDatabaseKinds())('destination servers on %s', (kind) => {
  let t: TTestApp;
  let admin: TestClient;
  let user: TestClient;
  let anonymous: TestClient;

  async function client(role: 'user' | 'admin') {
    const c = new TestClient(t.app, { headers: { 'accept-language': 'en' } });
    const response = await c.register(newCredentials(role));
    expect(response.statusCode).toBe(201);
    if (role === 'admin') {
      // Admins are made with the CLI (docs/PRODUCT.md#accounts-and-roles); the test sets the role the same way.
      await t.database.db
        .update(users)
        .set({ role: 'admin' })
        .where(eq(users.id, response.json().user.id));
    }
    return c;
  }

  beforeAll(async () => {
    // Probes on save, as server.ts asks; no minute cron (destinationProbe is off).
    t = await createTestApp(kind, { probeOnSave: true });
    admin = await client('admin');
    user = await client('user');
    anonymous = new TestClient(t.app, { headers: { 'accept-language': 'en' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const create = (body: Record<string, unknown>) =>
    admin.write('POST', '/api/admin/destination-servers', body);

  /** The destination as the list shows it, once its probe has recorded a status. */
  async function probed(id: string) {
    let row: { status: string; latency: number | null } | undefined;
    for (let i = 0; i < 100; i++) {
      const list = (await admin.request({ method: 'GET', url: '/api/destination-servers' })).json();
      row = (list as { id: string; status: string; latency: number | null }[]).find(
        (d) => d.id === id,
      );
      if (row?.status !== 'unknown') return row;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return row;
  }

  it('lets an admin create destinations in each endpoint form', async () => {
    // Inactive: not probed, so the status stays unknown whatever answers on these addresses.
    for (const endpoint of ['10.0.0.5', 'http://app.internal:8080', 'backend.local:3000']) {
      const response = await create({ name: `Backend ${endpoint}`, endpoint, isActive: false });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toEqual({
        id: expect.any(String),
        name: `Backend ${endpoint}`,
        endpoint,
        description: null,
        status: 'unknown',
        load: null,
        latency: null,
        isActive: false,
        maintenanceNote: null,
      });
    }
  });

  it('probes a new destination at once: online where something listens, offline where not', async () => {
    // This app runs no cron probe: only the save can have probed.
    const up = await create({
      name: 'Listening',
      endpoint: `http://127.0.0.1:${endpoints.openPort}`,
    });
    const down = await create({ name: 'Closed', endpoint: `127.0.0.1:${endpoints.closedPort}` });
    expect(up.statusCode).toBe(201);
    expect(down.statusCode).toBe(201);
    expect(await probed(up.json().id)).toMatchObject({
      status: 'online',
      latency: expect.any(Number),
    });
    expect(await probed(down.json().id)).toMatchObject({ status: 'offline', latency: null });
    const [row] = await t.database.db
      .select()
      .from(destinationServers)
      .where(eq(destinationServers.id, up.json().id));
    expect(row?.lastCheckedAt).not.toBeNull();
  });

  it('probes an edited destination at once: a new address is measured again', async () => {
    const created = await create({ name: 'Moving', endpoint: `127.0.0.1:${endpoints.closedPort}` });
    const { id } = created.json();
    expect(await probed(id)).toMatchObject({ status: 'offline' });
    const moved = await admin.write('PUT', `/api/admin/destination-servers/${id}`, {
      endpoint: `127.0.0.1:${endpoints.openPort}`,
    });
    // The answer describes the new address as not measured yet; the probe follows.
    expect(moved.json()).toMatchObject({ status: 'unknown', latency: null });
    expect(await probed(id)).toMatchObject({ status: 'online', latency: expect.any(Number) });
  });

  it('lists every destination, inactive ones too, to any signed-in user', async () => {
    const inactive = await create({
      name: 'Old cluster',
      endpoint: 'https://old.example.test',
      description: 'Being retired',
      isActive: false,
      maintenanceNote: 'Maintenance until Friday',
    });
    expect(inactive.statusCode).toBe(201);
    await t.database.db
      .update(destinationServers)
      .set({ status: 'online', latencyMs: 12 })
      .where(eq(destinationServers.endpoint, '10.0.0.5'));
    await t.database.db
      .update(destinationServers)
      .set({ isActive: true })
      .where(eq(destinationServers.endpoint, '10.0.0.5'));

    const response = await user.request({ method: 'GET', url: '/api/destination-servers' });
    expect(response.statusCode).toBe(200);
    const list = response.json() as { name: string; isActive: boolean }[];
    expect(list.map((d) => d.name)).toEqual([...list.map((d) => d.name)].sort());
    expect(list).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ endpoint: '10.0.0.5', status: 'online', latency: 12 }),
        expect.objectContaining({
          name: 'Old cluster',
          isActive: false,
          description: 'Being retired',
          maintenanceNote: 'Maintenance until Friday',
        }),
      ]),
    );
    const signedOut = await anonymous.request({ method: 'GET', url: '/api/destination-servers' });
    expect(signedOut.statusCode).toBe(401);
  });

  it('refuses bad input with the validation messages and stores nothing', async () => {
    const before = (await admin.request({ method: 'GET', url: '/api/destination-servers' })).json();
    const bad = await create({ name: '  ', endpoint: 'not a url' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().issues).toEqual(
      expect.arrayContaining([
        { path: 'name', message: translate('en', 'validation.required') },
        {
          path: 'endpoint',
          message:
            'Invalid format. Use an IP, domain (with optional port) or URL with http:// or https://',
        },
      ]),
    );
    const missing = await create({ name: 'x' });
    expect(missing.json().issues).toEqual([
      { path: 'endpoint', message: 'Target server is required' },
    ]);
    const spanish = await admin.write(
      'POST',
      '/api/admin/destination-servers',
      { name: 'x', endpoint: 'ftp://x' },
      { 'accept-language': 'es' },
    );
    expect(spanish.json().issues).toEqual([
      { path: 'endpoint', message: translate('es', 'validation.target.invalid') },
    ]);
    const after = (await admin.request({ method: 'GET', url: '/api/destination-servers' })).json();
    expect(after).toEqual(before);
  });

  it('updates fields; a new endpoint is unknown until probed', async () => {
    // Inactive, so no probe races the statuses this test sets.
    const created = (
      await create({ name: 'Edit me', endpoint: '10.0.0.9', isActive: false })
    ).json();
    await t.database.db
      .update(destinationServers)
      .set({ status: 'online', latencyMs: 5 })
      .where(eq(destinationServers.id, created.id));

    const renamed = await admin.write('PUT', `/api/admin/destination-servers/${created.id}`, {
      name: 'Edited',
      isActive: false,
      maintenanceNote: 'Patching',
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({
      name: 'Edited',
      endpoint: '10.0.0.9',
      isActive: false,
      maintenanceNote: 'Patching',
      status: 'online',
      latency: 5,
    });

    const moved = await admin.write('PUT', `/api/admin/destination-servers/${created.id}`, {
      endpoint: 'https://new.example.test:8443',
      maintenanceNote: '',
    });
    expect(moved.json()).toMatchObject({
      endpoint: 'https://new.example.test:8443',
      status: 'unknown',
      latency: null,
      maintenanceNote: null,
    });

    const invalid = await admin.write('PUT', `/api/admin/destination-servers/${created.id}`, {
      endpoint: 'bad host!',
    });
    expect(invalid.statusCode).toBe(400);
  });

  it('deletes, then answers 404; unknown and malformed ids are refused', async () => {
    const created = (
      await create({ name: 'Delete me', endpoint: `127.0.0.1:${endpoints.closedPort}` })
    ).json();
    const url = `/api/admin/destination-servers/${created.id}`;
    const removed = await admin.write('DELETE', url);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ success: true });
    const again = await admin.write('DELETE', url);
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(translate('en', 'errors.notFound'));
    const put = await admin.write('PUT', `/api/admin/destination-servers/${UNKNOWN_ID}`, {
      name: 'x',
    });
    expect(put.statusCode).toBe(404);
    const malformed = await admin.write('DELETE', '/api/admin/destination-servers/not-a-uuid');
    expect(malformed.statusCode).toBe(400);
  });

  it('answers 403 to users and 401 to anonymous callers on every admin route', async () => {
    const target = (
      await create({ name: 'Guarded', endpoint: `127.0.0.1:${endpoints.closedPort}` })
    ).json();
    const calls = [
      ['POST', '/api/admin/destination-servers', { name: 'x', endpoint: '10.0.0.1' }],
      ['PUT', `/api/admin/destination-servers/${target.id}`, { name: 'taken over' }],
      ['DELETE', `/api/admin/destination-servers/${target.id}`, undefined],
    ] as const;
    for (const [method, url, body] of calls) {
      const asUser = await user.write(method, url, body);
      expect(asUser.statusCode).toBe(403);
      expect(asUser.json().message).toBe(translate('en', 'errors.unauthorized'));
      const asAnonymous = await anonymous.write(method, url, body);
      expect(asAnonymous.statusCode).toBe(401);
      // Even with a body that would not validate, the role is checked first.
      if (body) expect((await user.write(method, url, { name: '' })).statusCode).toBe(403);
    }
    const list = (await user.request({ method: 'GET', url: '/api/destination-servers' })).json();
    expect(list).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'Guarded' })]));
  });
});
