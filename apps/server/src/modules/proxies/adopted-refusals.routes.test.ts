// An adopted site (issue 40) stays as its owner wrote it: every route that would write it from
// Portico, or store something only a Portico deployment would serve, is refused with the same
// keyed 409 naming the file, in the caller's language, and changes nothing. Delete forgets only
// Portico's record (the lab test site-scan.lab.test.ts shows the file stays on the server).
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProxy, signedInClient } from '../../../test/support/proxies-test-helpers';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import { testDatabaseKinds } from '../../../test/support/test-database';
import { createTestPki } from '../../../test/support/test-pki';
import { customCertificates, proxyConfigurations } from '../../db/schema';

const FILE = '/etc/nginx/sites-enabled/hand-written';
const DAY = 24 * 60 * 60 * 1000;
const pki = createTestPki();
afterAll(() => pki.remove());

describe.each(testDatabaseKinds())('an adopted site’s refusals on %s', (kind) => {
  let t: TTestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { deploy: { workers: 0 } });
  });
  afterAll(async () => t?.close());

  async function adopted() {
    const { client } = await signedInClient(t);
    const { id, input } = await createProxy(client);
    await t.database.db
      .update(proxyConfigurations)
      .set({ origin: 'adopted', adoptedFile: FILE, status: 'completed' })
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
});
