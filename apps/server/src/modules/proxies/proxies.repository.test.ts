// The edit's one prepared statement (repository.edit): the change and its audit row land
// together, on PGlite and PostgreSQL; a deploying row gets neither, a taken domain neither; the
// host key and the saved password go only when asked. And the reads by id, asked together.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProxy, signedInClient } from '../../../test/support/proxies-test-helpers';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import { testDatabaseKinds } from '../../../test/support/test-database';
import { auditLog, proxyConfigurations } from '../../db/schema';
import { auditRowOf } from '../audit/audit.service';
import { createProxiesRepository, DomainTakenError, type TProxyEdit } from './proxies.repository';

describe.each(testDatabaseKinds())('the proxies repository on %s', (kind) => {
  let t: TTestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  const rowOf = async (id: string) =>
    (
      await t.database.db.select().from(proxyConfigurations).where(eq(proxyConfigurations.id, id))
    )[0]!;
  const editsOf = async (id: string) =>
    (await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, id))).filter(
      (a) => a.action === 'proxy.edit',
    );

  async function owned() {
    const { client, user } = await signedInClient(t);
    const { id } = await createProxy(client);
    await t.database.db
      .update(proxyConfigurations)
      .set({ hostKeyFingerprint: 'SHA256:pinned' })
      .where(eq(proxyConfigurations.id, id));
    const row = await rowOf(id);
    const edit: TProxyEdit = {
      domain: row.domain,
      targetServer: 'http://10.0.0.9:81',
      serverIp: row.serverIp,
      sshUser: row.sshUser,
      sshPort: row.sshPort,
      options: row.options,
      sshServerId: row.sshServerId,
      forgetHostKey: false,
      pinnedHostKey: null,
      forgetPassword: false,
    };
    const audit = auditRowOf(user, {
      action: 'proxy.edit',
      targetType: 'proxy_configuration',
      targetId: id,
      targetOwnerId: user.id,
      changes: [{ field: 'targetServer', before: row.targetServer, after: edit.targetServer }],
    });
    return { id, row, user, edit, audit };
  }

  it('writes the change and its audit row, and answers the row as written', async () => {
    const { id, row, user, edit, audit } = await owned();
    const repository = createProxiesRepository(t.database.db);
    const written = await repository.edit(id, { ...edit, sshPort: 2222 }, audit);
    expect(written).toEqual({
      ...row,
      targetServer: 'http://10.0.0.9:81',
      sshPort: 2222,
      // The search text follows the row's own columns (schema: generated).
      searchText: [row.domain, 'http://10.0.0.9:81', row.serverIp].join('\n'),
      updatedAt: expect.any(Date),
    });
    expect(written!.updatedAt.getTime()).toBeGreaterThanOrEqual(row.updatedAt.getTime());
    expect(await rowOf(id)).toEqual(written);
    const edits = await editsOf(id);
    expect(edits).toHaveLength(1);
    expect(edits[0]).toMatchObject({
      actorId: user.id,
      actorUsername: user.username,
      targetType: 'proxy_configuration',
      targetOwnerId: user.id,
      changes: audit.changes,
    });
  });

  it('forgets the pinned host key and the saved password only when asked', async () => {
    const { id, row, edit, audit } = await owned();
    expect(row.sshPasswordEnc).not.toBeNull();
    const repository = createProxiesRepository(t.database.db);
    const keyGone = await repository.edit(id, { ...edit, forgetHostKey: true }, audit);
    expect(keyGone).toMatchObject({ hostKeyFingerprint: null, sshPasswordEnc: row.sshPasswordEnc });
    const passwordGone = await repository.edit(id, { ...edit, forgetPassword: true }, audit);
    expect(passwordGone).toMatchObject({ sshPasswordEnc: null, sshPasswordTarget: null });
    expect(await rowOf(id)).toEqual(passwordGone);
  });

  it('writes neither while the row is deploying', async () => {
    const { id, edit, audit } = await owned();
    await t.database.db
      .update(proxyConfigurations)
      .set({ status: 'deploying' })
      .where(eq(proxyConfigurations.id, id));
    const before = await rowOf(id);
    const repository = createProxiesRepository(t.database.db);
    expect(await repository.edit(id, edit, audit)).toBeUndefined();
    expect(await rowOf(id)).toEqual(before);
    expect(await editsOf(id)).toEqual([]);
  });

  it('writes neither when the domain is taken, and says so', async () => {
    const first = await owned();
    const second = await owned();
    const repository = createProxiesRepository(t.database.db);
    await expect(
      repository.edit(second.id, { ...second.edit, domain: first.row.domain }, second.audit),
    ).rejects.toBeInstanceOf(DomainTakenError);
    expect(await rowOf(second.id)).toEqual(second.row);
    expect(await editsOf(second.id)).toEqual([]);
  });

  // Reads that come together go as one query (db/batched-reads.ts).
  it.each([true, false])(
    'answers each id, and an id that is no uuid fails none of the others (batched: %s)',
    async (batchReads) => {
      const { client } = await signedInClient(t);
      const { id } = await createProxy(client);
      const repository = createProxiesRepository(t.database.db, { batchReads });
      const [found, garbage, missing] = await Promise.all([
        repository.findById(id),
        repository.findById("x' or 1=1 --"),
        repository.findById('00000000-0000-4000-8000-000000000000'),
      ]);
      expect(found?.id).toBe(id);
      expect(garbage).toBeUndefined();
      expect(missing).toBeUndefined();
    },
  );
});
