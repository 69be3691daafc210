// The admin edit of another user's proxy and the audit trail it leaves: filters by user and by
// proxy, pagination; on PGlite and on PostgreSQL when TEST_DATABASE_URL is set.
import { AUDIT_SECRET_MARK, type TAuditEntry, ZAuditPage } from '@portico/shared/admin/api';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namedClient } from '../../../test/support/admin-test-helpers';
import { createProxy, SSH_PASSWORD } from '../../../test/support/proxies-test-helpers';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import { testDatabaseKinds } from '../../../test/support/test-database';
import { proxyConfigurations, sshServers } from '../../db/schema';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describe.each(testDatabaseKinds())('admin edit and audit trail on %s', (kind) => {
  let t: TTestApp;
  let admin: Awaited<ReturnType<typeof namedClient>>;

  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await namedClient(t, 'adm', 'admin');
  });
  afterAll(async () => t?.close());

  async function auditPage(query: string) {
    const response = await admin.client.request({
      method: 'GET',
      url: `/api/admin/audit-log?${query}`,
    });
    expect(response.statusCode).toBe(200);
    return ZAuditPage.parse(response.json());
  }

  const editBody = (domain: string, overrides: Record<string, unknown> = {}) => ({
    domain,
    targetServer: 'http://10.0.0.9:9000',
    serverIp: '203.0.113.10',
    sshUser: 'root',
    sshPort: 22,
    ...overrides,
  });

  it("changes the owner's proxy, which the owner then sees, and audits it without secrets", async () => {
    const owner = await namedClient(t, 'own');
    const { id, input } = await createProxy(owner.client);
    const domain = `edited-${input.domain}`;
    const stored = (
      await t.database.db.select().from(proxyConfigurations).where(eq(proxyConfigurations.id, id))
    )[0]!;

    const response = await admin.client.write(
      'PUT',
      `/api/admin/proxy-configurations/${id}`,
      editBody(domain, { sshPort: 2222 }),
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id, userId: owner.user.id, domain, sshPort: 2222 });
    expect(response.body).not.toContain(SSH_PASSWORD);

    const seen = await owner.client.request({
      method: 'GET',
      url: '/api/user/proxy-configurations',
    });
    expect(seen.json()).toEqual([
      expect.objectContaining({ id, domain, targetServer: 'http://10.0.0.9:9000', sshPort: 2222 }),
    ]);

    const { entries } = await auditPage(`proxyId=${id}`);
    const edit = entries[0]!;
    expect(edit).toMatchObject({
      actorId: admin.user.id,
      actorUsername: admin.user.username,
      action: 'proxy.admin_edit',
      targetType: 'proxy_configuration',
      targetId: id,
      targetOwnerId: owner.user.id,
    });
    expect(edit.changes).toEqual(
      expect.arrayContaining([
        { field: 'domain', before: input.domain, after: domain },
        { field: 'targetServer', before: input.targetServer, after: 'http://10.0.0.9:9000' },
        { field: 'sshPort', before: 22, after: 2222 },
        // A new port: the saved password, entered for port 22, is cleared (never sent there).
        { field: 'sshPasswordEnc', before: AUDIT_SECRET_MARK, after: null },
      ]),
    );
    const trail = JSON.stringify(entries);
    expect(trail).not.toContain(SSH_PASSWORD);
    expect(trail).not.toContain(stored.sshPasswordEnc!);
  });

  it('answers 404 for an unknown proxy and 409 for a domain taken or a running deployment', async () => {
    const owner = await namedClient(t, 'own');
    const mine = await createProxy(owner.client);
    const other = await createProxy(owner.client);
    const unknown = await admin.client.write(
      'PUT',
      `/api/admin/proxy-configurations/${UNKNOWN_ID}`,
      editBody('nobody.example.com'),
    );
    expect(unknown.statusCode).toBe(404);

    const taken = await admin.client.write(
      'PUT',
      `/api/admin/proxy-configurations/${mine.id}`,
      editBody(other.input.domain),
    );
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({
      code: 'domain_taken',
      message: 'That domain is already configured in Portico.',
    });

    await t.database.db
      .update(proxyConfigurations)
      .set({ status: 'deploying' })
      .where(eq(proxyConfigurations.id, mine.id));
    const running = await admin.client.write(
      'PUT',
      `/api/admin/proxy-configurations/${mine.id}`,
      editBody(`new-${mine.input.domain}`),
    );
    expect(running.statusCode).toBe(409);
    expect(running.json().code).toBe('deployment_running');
  });

  it('filters by user (as actor or as owner) and by proxy, newest first', async () => {
    const alice = await namedClient(t, 'ali');
    const bob = await namedClient(t, 'bob');
    const aliceProxy = await createProxy(alice.client);
    const bobProxy = await createProxy(bob.client);
    await admin.client.write(
      'PUT',
      `/api/admin/proxy-configurations/${bobProxy.id}`,
      editBody(`x-${bobProxy.input.domain}`),
    );

    // Each first proxy also saved its server (ssh_server.create): the proxies' entries here.
    const ofProxies = (page: { entries: TAuditEntry[] }) =>
      page.entries.filter((e) => e.targetType === 'proxy_configuration');
    const forBob = await auditPage(`userId=${bob.user.id}`);
    expect(ofProxies(forBob).map((e) => [e.action, e.targetId])).toEqual([
      ['proxy.admin_edit', bobProxy.id],
      ['proxy.create', bobProxy.id],
    ]);
    const forAlice = await auditPage(`userId=${alice.user.id}`);
    expect(ofProxies(forAlice).map((e) => [e.action, e.targetId])).toEqual([
      ['proxy.create', aliceProxy.id],
    ]);
    // The admin acted on Bob's proxy: their own trail holds the edit.
    const forAdmin = await auditPage(`userId=${admin.user.id}`);
    expect(forAdmin.entries.some((e) => e.targetId === bobProxy.id)).toBe(true);
    expect(
      forAdmin.entries.every(
        (e) => e.actorId === admin.user.id || e.targetOwnerId === admin.user.id,
      ),
    ).toBe(true);

    const forProxy = await auditPage(`proxyId=${aliceProxy.id}`);
    expect(forProxy.entries.map((e) => e.targetId)).toEqual([aliceProxy.id]);
    const both = await auditPage(`userId=${alice.user.id}&proxyId=${bobProxy.id}`);
    expect(both.entries).toEqual([]);
  });

  it('pages newest first with a cursor until the last page', async () => {
    const owner = await namedClient(t, 'pag');
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push((await createProxy(owner.client)).id);

    const seen: TAuditEntry[] = [];
    let cursor: number | null = null;
    let pages = 0;
    do {
      const page = await auditPage(
        `userId=${owner.user.id}&limit=2${cursor === null ? '' : `&before=${cursor}`}`,
      );
      expect(page.entries.length).toBeLessThanOrEqual(2);
      seen.push(...page.entries);
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor !== null);
    // Five proxies and the server the first one saved: six entries.
    expect(pages).toBe(3);
    expect(seen.map((e) => e.action)).toContain('ssh_server.create');
    expect(
      seen.filter((e) => e.targetType === 'proxy_configuration').map((e) => e.targetId),
    ).toEqual([...ids].reverse());
    const entryIds = seen.map((e) => e.id);
    expect(entryIds).toEqual([...entryIds].sort((a, b) => b - a));
  });

  it("names each entry's target as it is now, and null once the target is gone", async () => {
    const owner = await namedClient(t, 'nam');
    const { id, input } = await createProxy(owner.client);
    const promoted = await admin.client.write('PATCH', `/api/admin/users/${owner.user.id}/role`, {
      role: 'admin',
    });
    expect(promoted.statusCode).toBe(200);
    const serverId = (
      await t.database.db
        .select({ id: proxyConfigurations.sshServerId })
        .from(proxyConfigurations)
        .where(eq(proxyConfigurations.id, id))
    )[0]!.id!;
    await t.database.db
      .update(sshServers)
      .set({ name: 'Rack 7' })
      .where(eq(sshServers.id, serverId));
    await admin.client.write(
      'PUT',
      `/api/admin/proxy-configurations/${id}`,
      editBody(`now-${input.domain}`),
    );
    const nameOf = (entries: TAuditEntry[], targetId: string) =>
      entries.find((e) => e.targetId === targetId)?.targetName;

    const before = (await auditPage(`userId=${owner.user.id}`)).entries;
    // The proxy's domain today, not the one it was created with.
    expect(nameOf(before, id)).toBe(`now-${input.domain}`);
    expect(nameOf(before, serverId)).toBe('Rack 7');
    expect(nameOf(before, owner.user.id)).toBe(owner.user.username);

    await t.database.db.delete(proxyConfigurations).where(eq(proxyConfigurations.id, id));
    await t.database.db.delete(sshServers).where(eq(sshServers.id, serverId));
    const after = (await auditPage(`userId=${owner.user.id}`)).entries;
    expect(after.filter((e) => e.targetId === id).length).toBe(2);
    expect(after.filter((e) => e.targetId === id).every((e) => e.targetName === null)).toBe(true);
    expect(nameOf(after, serverId)).toBeNull();
  });

  it('rejects a malformed filter with a translated validation error', async () => {
    const response = await admin.client.request({
      method: 'GET',
      url: '/api/admin/audit-log?userId=not-a-uuid&limit=500',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('validation_failed');
  });
});
