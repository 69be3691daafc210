// An adopted site (issue 40) stays as its owner wrote it: every route that would write it from
// Portico, or store something only a Portico deployment would serve, is refused with the same
// keyed 409 naming the file, in the caller's language, and changes nothing. Delete forgets only
// Portico's record (the lab test site-scan.lab.test.ts shows the file stays on the server).
// A conversion that fails after its plan is audited with what became of the server.
import { ZAuditPage } from '@portico/shared/admin/api';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestEndpoints } from '../../../test/peers/test-endpoints';
import { createProxy, signedInClient } from '../../../test/support/proxies-test-helpers';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import { testDatabaseKinds } from '../../../test/support/test-database';
import { createTestPki } from '../../../test/support/test-pki';
import { customCertificates, proxyConfigurations } from '../../db/schema';

const FILE = '/etc/nginx/sites-enabled/hand-written';
const DAY = 24 * 60 * 60 * 1000;
const pki = createTestPki();
afterAll(() => pki.remove());
const endpoints = useTestEndpoints();

describe.each(testDatabaseKinds())('an adopted site’s refusals on %s', (kind) => {
  let t: TTestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { deploy: { workers: 0 } });
  });
  afterAll(async () => t?.close());

  async function adopted(overrides: Record<string, unknown> = {}) {
    const { client } = await signedInClient(t);
    const { id, input } = await createProxy(client, overrides);
    await t.database.db
      .update(proxyConfigurations)
      .set({
        origin: 'adopted',
        adoptedFile: FILE,
        adoptedSha256: 'a'.repeat(64),
        status: 'completed',
      })
      .where(eq(proxyConfigurations.id, id));
    const row = async () =>
      (
        await t.database.db.select().from(proxyConfigurations).where(eq(proxyConfigurations.id, id))
      )[0]!;
    return { client, id, domain: input.domain, before: await row(), row };
  }

  it.each([
    ['en', 'adopted this site as it is'],
    ['es', 'adoptó'],
  ] as const)(
    'refuses a reset and an uploaded certificate, naming the file (%s)',
    async (lang, words) => {
      const { client, id, domain, before, row } = await adopted();
      const headers = { 'accept-language': lang };
      const reset = await client.write(
        'PATCH',
        `/api/proxy-configurations/${id}/reset`,
        undefined,
        headers,
      );
      const leaf = pki.leaf({
        names: [domain],
        from: new Date(Date.now() - DAY),
        to: new Date(Date.now() + 60 * DAY),
      });
      const upload = await client.write(
        'PUT',
        `/api/proxy-configurations/${id}/certificate/custom`,
        { certificate: leaf.cert, privateKey: leaf.key } as never,
        headers,
      );
      for (const answer of [reset, upload]) {
        expect(answer.statusCode, answer.body).toBe(409);
        const body = answer.json();
        expect(body.code).toBe('proxy_adopted');
        expect(body.text).toEqual({ key: 'errors.proxyAdopted', params: { file: FILE } });
        expect(body.message).toContain(words);
        expect(body.message).toContain(FILE);
      }
      // Nothing changed: the row as it was, no upload stored.
      expect(await row()).toEqual(before);
      const stored = await t.database.db
        .select()
        .from(customCertificates)
        .where(eq(customCertificates.configurationId, id));
      expect(stored).toEqual([]);
    },
  );

  it('audits a conversion refused after its plan, with its outcome, and changes nothing', async () => {
    // A server that refuses the connection: the engine stops before writing anything.
    const { client, id, row } = await adopted({
      serverIp: '127.0.0.1',
      sshPort: endpoints.closedPort,
    });
    const before = await row();
    const answer = await client.write('POST', `/api/proxy-configurations/${id}/convert`, {
      fingerprint: `v1:${'b'.repeat(64)}`,
    });
    expect(answer.statusCode, answer.body).toBe(502);
    expect(answer.json()).toMatchObject({
      code: 'convert_failed',
      text: { key: 'errors.convertFailed' },
    });
    expect(await row()).toEqual(before);

    const admin = await signedInClient(t, 'admin');
    const audit = await admin.client.request({
      method: 'GET',
      url: `/api/admin/audit-log?proxyId=${id}`,
    });
    expect(audit.statusCode).toBe(200);
    const failed = ZAuditPage.parse(audit.json()).entries.filter(
      (e) => e.action === 'proxy.convert_failed',
    );
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({
      targetType: 'proxy_configuration',
      targetId: id,
      changes: [{ field: 'outcome', before: null, after: 'refused' }],
    });
  });
});
