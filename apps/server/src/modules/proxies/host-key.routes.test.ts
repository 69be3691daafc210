import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProxy, signedInClient } from '../../../test/support/proxies-test-helpers';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import { testDatabaseKinds } from '../../../test/support/test-database';
import { auditLog, proxyConfigurations } from '../../db/schema';

const PINNED = `SHA256:${'Pin0'.repeat(10)}abc`;

describe.each(testDatabaseKinds())('forgetting a pinned host key on %s', (kind) => {
  let t: TTestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  async function pinned(client: Parameters<typeof createProxy>[0]) {
    const { id } = await createProxy(client, { hostKeyFingerprint: PINNED });
    const row = async () =>
      (
        await t.database.db.select().from(proxyConfigurations).where(eq(proxyConfigurations.id, id))
      )[0]!;
    expect((await row()).hostKeyFingerprint).toBe(PINNED);
    return { id, row };
  }

  it('lets the owner forget it, records who did, and the next contact pins again', async () => {
    const { client, user } = await signedInClient(t);
    const { id, row } = await pinned(client);
    const response = await client.write('DELETE', `/api/proxy-configurations/${id}/host-key`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id, hostKeyFingerprint: null });
    expect((await row()).hostKeyFingerprint).toBeNull();
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, id));
    const entry = audit.find((a) => a.action === 'proxy.forget_host_key');
    expect(entry?.actorId).toBe(user.id);
    expect(entry?.changes).toEqual([{ field: 'hostKeyFingerprint', before: PINNED, after: null }]);
  });

  it('lets an admin forget it; another user gets 404 and the pin stays', async () => {
    const owner = await signedInClient(t);
    const { id, row } = await pinned(owner.client);
    const other = await signedInClient(t);
    const refused = await other.client.write('DELETE', `/api/proxy-configurations/${id}/host-key`);
    expect(refused.statusCode).toBe(404);
    expect((await row()).hostKeyFingerprint).toBe(PINNED);
    const admin = await signedInClient(t, 'admin');
    const done = await admin.client.write('DELETE', `/api/proxy-configurations/${id}/host-key`);
    expect(done.statusCode).toBe(200);
    expect((await row()).hostKeyFingerprint).toBeNull();
  });

  it('refuses while a deployment runs (409, in the caller language) and keeps the pin', async () => {
    const { client } = await signedInClient(t);
    const { id, row } = await pinned(client);
    await t.database.db
      .update(proxyConfigurations)
      .set({ status: 'deploying' })
      .where(eq(proxyConfigurations.id, id));
    const refused = await client.write(
      'DELETE',
      `/api/proxy-configurations/${id}/host-key`,
      undefined,
      {
        'accept-language': 'es',
      },
    );
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('deployment_running');
    expect(refused.json().message).toMatch(/despliegue/i);
    expect((await row()).hostKeyFingerprint).toBe(PINNED);
  });
});
