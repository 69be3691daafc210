// Per-account limits (docs/PRODUCT.md#limits) through the API, on PGlite and on PostgreSQL when
// TEST_DATABASE_URL is set: the create past the limit is refused with `limit_reached` in the
// caller's language and stores nothing; an admin's own limit for one account lets one more in
// and is audited; a user cannot change limits; two creates racing at one below the limit do
// not both pass.
import { LIMIT_DEFAULTS } from '@portico/shared/admin/limits';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createProxy,
  proxyInput,
  signedInClient,
} from '../../../test/support/proxies-test-helpers';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import { TEST_PASSWORD, type TestClient } from '../../../test/support/test-client';
import { testDatabaseKinds } from '../../../test/support/test-database';
import { apiTokens, notificationSettings, proxyConfigurations, sshServers } from '../../db/schema';

const LIMITS = { ...LIMIT_DEFAULTS, proxies: 2, apiTokens: 2, webhooks: 0, servers: 1 };
const WEBHOOK = { emailEnabled: true, webhookUrl: 'http://127.0.0.1:9/hook' };
const token = (name: string) => ({
  name,
  scope: 'read',
  expiresInDays: null,
  password: TEST_PASSWORD,
});

describe.each(testDatabaseKinds())('per-account limits on %s', (kind) => {
  let t: TTestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { config: { limits: LIMITS, webhookAllowPrivate: true } });
  });
  afterAll(() => t?.close());

  async function stored(
    table: typeof proxyConfigurations | typeof apiTokens | typeof sshServers,
    userId: string,
  ) {
    return (
      await t.database.db.select({ n: count() }).from(table).where(eq(table.userId, userId))
    )[0]!.n;
  }
  const setLimits = (admin: TestClient, userId: string, body: Record<string, unknown>) =>
    admin.write('PUT', `/api/admin/users/${userId}/limits`, body);

  it('refuses the proxy past the limit with limit_reached, in es and en, storing nothing', async () => {
    const { client, user } = await signedInClient(t);
    await createProxy(client);
    await createProxy(client);
    const refused = await client.write('POST', '/api/proxy-configurations', proxyInput());
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'limit_reached',
      message:
        'This account has reached its limit of 2 proxy configurations. Delete one you no longer need, or ask an administrator to raise the limit.',
    });
    const spanish = await client.write('POST', '/api/proxy-configurations', proxyInput(), {
      'accept-language': 'es',
    });
    expect(spanish.json()).toMatchObject({
      code: 'limit_reached',
      message: expect.stringContaining('límite de 2 configuraciones de proxy'),
    });
    expect(await stored(proxyConfigurations, user.id)).toBe(2);
  });

  it('refuses the API token past the limit, storing nothing', async () => {
    const { client, user } = await signedInClient(t);
    expect((await client.write('POST', '/api/account/tokens', token('one'))).statusCode).toBe(201);
    expect((await client.write('POST', '/api/account/tokens', token('two'))).statusCode).toBe(201);
    const refused = await client.write('POST', '/api/account/tokens', token('three'));
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'limit_reached',
      message: expect.stringContaining('limit of 2 API tokens'),
    });
    expect(refused.body).not.toContain('ptk_');
    expect(await stored(apiTokens, user.id)).toBe(2);
  });

  it('refuses the saved server past the limit, in es and en, storing nothing', async () => {
    const { client, user } = await signedInClient(t);
    const server = (name: string) => ({
      name,
      host: '203.0.113.30',
      username: 'deploy',
      password: 'Saved-Server-Pa55word',
    });
    expect((await client.write('POST', '/api/ssh-servers', server('one'))).statusCode).toBe(201);
    const refused = await client.write('POST', '/api/ssh-servers', server('two'), {
      'accept-language': 'es',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'limit_reached',
      message: expect.stringContaining('límite de 1 servidores guardados'),
    });
    const english = await client.write('POST', '/api/ssh-servers', server('two'), {
      'accept-language': 'en',
    });
    expect(english.json().message).toContain('limit of 1 saved servers');
    expect(await stored(sshServers, user.id)).toBe(1);
  });

  it('refuses the webhook past the limit (0 here), storing nothing; an admin raises it', async () => {
    const { client, user } = await signedInClient(t);
    const { client: admin } = await signedInClient(t, 'admin');
    const refused = await client.write('PUT', '/api/account/notifications', WEBHOOK);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'limit_reached',
      message: expect.stringContaining('limit of 0 webhooks'),
    });
    const rows = await t.database.db
      .select()
      .from(notificationSettings)
      .where(eq(notificationSettings.userId, user.id));
    expect(rows.filter((row) => row.webhookUrlEnc !== null)).toEqual([]);

    expect((await setLimits(admin, user.id, { webhooks: 1 })).statusCode).toBe(200);
    const saved = await client.write('PUT', '/api/account/notifications', WEBHOOK);
    expect(saved.statusCode).toBe(200);
    // Replacing the one webhook is not a second one.
    const replaced = await client.write('PUT', '/api/account/notifications', {
      ...WEBHOOK,
      webhookUrl: 'http://127.0.0.1:9/other',
    });
    expect(replaced.statusCode).toBe(200);
  });

  it("lets one more proxy in once an admin raised the account's limit, audited, and no other account's", async () => {
    const { client, user } = await signedInClient(t);
    const { client: other } = await signedInClient(t);
    const { client: admin, user: adminUser } = await signedInClient(t, 'admin');
    await createProxy(client);
    await createProxy(client);

    const raised = await setLimits(admin, user.id, { proxies: 3 });
    expect(raised.statusCode).toBe(200);
    expect(raised.json().proxies).toEqual({ limit: 3, custom: true, used: 2 });
    expect(raised.json().apiTokens).toEqual({ limit: 2, custom: false, used: 0 });
    // The two proxies typed with one server's fields saved that server once, for reuse.
    expect(raised.json().servers).toEqual({ limit: 1, custom: false, used: 1 });

    expect((await client.write('POST', '/api/proxy-configurations', proxyInput())).statusCode).toBe(
      200,
    );
    const fourth = await client.write('POST', '/api/proxy-configurations', proxyInput());
    expect(fourth.json()).toMatchObject({ code: 'limit_reached' });
    expect(fourth.json().message).toContain('limit of 3 proxy');
    // Another account still has the default.
    await createProxy(other);
    await createProxy(other);
    expect((await other.write('POST', '/api/proxy-configurations', proxyInput())).statusCode).toBe(
      409,
    );

    const trail = await admin.request({
      method: 'GET',
      url: `/api/admin/audit-log?userId=${user.id}`,
    });
    expect(trail.json().entries).toContainEqual(
      expect.objectContaining({
        actorId: adminUser.id,
        action: 'admin.user.limits',
        targetType: 'user',
        targetId: user.id,
        changes: [{ field: 'proxies', before: null, after: 3 }],
      }),
    );
    // null goes back to the default.
    const reset = await setLimits(admin, user.id, { proxies: null });
    expect(reset.json().proxies).toEqual({ limit: 2, custom: false, used: 3 });
    const read = await admin.request({ method: 'GET', url: `/api/admin/users/${user.id}/limits` });
    expect(read.json().proxies).toEqual({ limit: 2, custom: false, used: 3 });
  });

  it('refuses a user reading or changing limits (403) and a bad value (400), changing nothing', async () => {
    const { client, user } = await signedInClient(t);
    const { client: admin } = await signedInClient(t, 'admin');
    expect((await setLimits(client, user.id, { proxies: 100 })).statusCode).toBe(403);
    expect(
      (await client.request({ method: 'GET', url: `/api/admin/users/${user.id}/limits` }))
        .statusCode,
    ).toBe(403);
    for (const bad of [{ proxies: -1 }, { proxies: 1.5 }, { proxies: '9' }, { other: 1 }]) {
      const response = await setLimits(admin, user.id, bad);
      expect(response.statusCode).toBe(400);
    }
    const read = await admin.request({ method: 'GET', url: `/api/admin/users/${user.id}/limits` });
    expect(read.json().proxies).toEqual({ limit: 2, custom: false, used: 0 });
    const unknown = await admin.request({
      method: 'GET',
      url: '/api/admin/users/00000000-0000-4000-8000-000000000000/limits',
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('lets only one of two creates racing at one below the limit through', async () => {
    const { client, user } = await signedInClient(t);
    await createProxy(client);
    const answers = await Promise.all([
      client.write('POST', '/api/proxy-configurations', proxyInput()),
      client.write('POST', '/api/proxy-configurations', proxyInput()),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect(await stored(proxyConfigurations, user.id)).toBe(2);

    const tokens = await Promise.all([
      client.write('POST', '/api/account/tokens', token('a')),
      client.write('POST', '/api/account/tokens', token('b')),
      client.write('POST', '/api/account/tokens', token('c')),
    ]);
    expect(tokens.map((a) => a.statusCode).sort()).toEqual([201, 201, 409]);
    expect(await stored(apiTokens, user.id)).toBe(2);
  });
});
