import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProxy, signedInClient } from '../../../test/support/proxies-test-helpers';
import { removeTestTempDir, testTempDir } from '../../../test/support/temp-dir';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import type { TestClient } from '../../../test/support/test-client';
import { testDatabaseKinds } from '../../../test/support/test-database';
import { createTestPki } from '../../../test/support/test-pki';
import { customCertificates } from '../../db/schema';
import { decryptSecret, loadOrCreateKey } from '../../lib/secrets';
import { customCertificateKeyAad } from './custom-certificate-secret';

const DAY = 24 * 60 * 60 * 1000;
const pki = createTestPki();
afterAll(() => pki.remove());
const now = Date.now();
const leafFor = (domain: string, from = now - DAY, to = now + 89 * DAY) =>
  pki.leaf({ names: [domain], from: new Date(from), to: new Date(to) });

describe.each(testDatabaseKinds())('your own certificate on %s', (kind) => {
  let t: TTestApp;
  let keyDir: string;
  let keyFile: string;
  beforeAll(async () => {
    keyDir = testTempDir('portico-custom-');
    keyFile = join(keyDir, 'secret.key');
    t = await createTestApp(kind, { config: { secretKeyFile: keyFile }, deploy: { workers: 0 } });
  });
  afterAll(async () => {
    await t?.close();
    removeTestTempDir(keyDir);
  });

  const upload = (client: TestClient, id: string, body: unknown, lang = 'en') =>
    client.write('PUT', `/api/proxy-configurations/${id}/certificate/custom`, body as never, {
      'accept-language': lang,
    });
  const storedRow = async (id: string) =>
    (
      await t.database.db
        .select()
        .from(customCertificates)
        .where(eq(customCertificates.configurationId, id))
    )[0];

  it('stores the chain and the key sealed, answers without the key, and a new upload replaces it', async () => {
    const { client } = await signedInClient(t);
    const { id, input } = await createProxy(client);
    const leaf = leafFor(input.domain);
    const response = await upload(client, id, {
      certificate: `${leaf.cert}${pki.caPem}`,
      privateKey: leaf.key,
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ names: [input.domain], issuer: 'Portico Test CA' });
    expect(response.body).not.toContain('PRIVATE KEY');
    const row = await storedRow(id);
    expect(row!.fingerprint).toBe(body.fingerprint);
    expect(row!.chainPem.match(/BEGIN CERTIFICATE/g)).toHaveLength(2);
    expect(row!.privateKeyEnc).not.toContain('PRIVATE KEY');
    const key = decryptSecret(
      loadOrCreateKey(keyFile),
      row!.privateKeyEnc,
      customCertificateKeyAad(id),
    );
    expect(key).toMatch(/^-----BEGIN PRIVATE KEY-----/);

    const next = leafFor(input.domain);
    const replaced = await upload(client, id, { certificate: next.cert, privateKey: next.key });
    expect(replaced.statusCode).toBe(200);
    expect((await storedRow(id))!.fingerprint).toBe(replaced.json().fingerprint);
    expect(replaced.json().fingerprint).not.toBe(body.fingerprint);
  });

  it('refuses bad uploads in the caller’s language and keeps what was stored', async () => {
    const { client } = await signedInClient(t);
    const { id, input } = await createProxy(client);
    const good = leafFor(input.domain);
    expect(
      (await upload(client, id, { certificate: good.cert, privateKey: good.key })).statusCode,
    ).toBe(200);
    const before = await storedRow(id);
    const other = leafFor(input.domain);
    const expired = leafFor(input.domain, now - 90 * DAY, now - DAY);
    const wrongName = leafFor(`other-${input.domain}`);
    const cases: [string, unknown, string, RegExp][] = [
      [
        'keyMismatch',
        { certificate: good.cert, privateKey: other.key },
        'es',
        /^La clave privada no corresponde al certificado/,
      ],
      [
        'keyInChain',
        { certificate: `${good.cert}${good.key}`, privateKey: good.key },
        'en',
        /^The certificate field holds a private key\./,
      ],
      [
        'chainOrder',
        { certificate: `${good.cert}${other.cert}`, privateKey: good.key },
        'en',
        /^The chain is not in order: certificate 2 /,
      ],
      [
        'wrongName',
        { certificate: wrongName.cert, privateKey: wrongName.key },
        'es',
        new RegExp(
          `^El certificado no es válido para ${input.domain.replaceAll('.', '\\.')}: nombra other-`,
        ),
      ],
      [
        'expired',
        { certificate: expired.cert, privateKey: expired.key },
        'en',
        /^The certificate expired on /,
      ],
    ];
    for (const [reason, body, lang, words] of cases) {
      const r = await upload(client, id, body, lang);
      expect(r.statusCode, reason).toBe(400);
      expect(r.json().code).toBe('custom_certificate_invalid');
      expect(r.json().text.key).toBe(`certificates.upload.${reason}`);
      expect(r.json().message).toMatch(words);
      expect(r.body).not.toContain('PRIVATE KEY-----\n');
    }
    expect(await storedRow(id)).toEqual(before);
  });

  it('refuses a 5 MB upload whole, and another account’s proxy as not found', async () => {
    const { client } = await signedInClient(t);
    const { client: stranger } = await signedInClient(t);
    const { id, input } = await createProxy(client);
    const leaf = leafFor(input.domain);
    const huge = await upload(
      client,
      id,
      { certificate: `${leaf.cert}${'A'.repeat(5 * 1024 * 1024)}`, privateKey: leaf.key },
      'es',
    );
    expect(huge.statusCode).toBe(413);
    expect(huge.json().message).toBe('La solicitud es demasiado grande.');
    const theirs = await upload(stranger, id, { certificate: leaf.cert, privateKey: leaf.key });
    expect(theirs.statusCode).toBe(404);
    expect(await storedRow(id)).toBeUndefined();
  });

  it('shows the upload in the certificate status, and removing it forgets it (the owner only)', async () => {
    const { client } = await signedInClient(t);
    const { client: stranger } = await signedInClient(t);
    const { id, input } = await createProxy(client);
    const status = async () =>
      (
        await client.request({ method: 'GET', url: `/api/proxy-configurations/${id}/certificate` })
      ).json();
    expect((await status()).uploaded).toBeNull();
    const leaf = leafFor(input.domain);
    const uploaded = (
      await upload(client, id, { certificate: leaf.cert, privateKey: leaf.key })
    ).json();
    expect((await status()).uploaded).toEqual(uploaded);
    // certbot holds nothing for an upload: its actions are refused, saying why.
    for (const action of ['renew', 'renew-test']) {
      const refused = await client.write(
        'POST',
        `/api/proxy-configurations/${id}/certificate/${action}`,
      );
      expect(refused.statusCode).toBe(409);
      expect(refused.json().text).toEqual({ key: 'certificates.upload.noActions' });
    }
    const path = `/api/proxy-configurations/${id}/certificate/custom`;
    expect((await stranger.write('DELETE', path)).statusCode).toBe(404);
    expect(await storedRow(id)).toBeDefined();
    const removed = await client.write('DELETE', path);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toEqual({ success: true });
    expect(await storedRow(id)).toBeUndefined();
    expect((await status()).uploaded).toBeNull();
    const again = await client.write('DELETE', path, undefined, { 'accept-language': 'es' });
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe('Este proxy no tiene un certificado subido.');
    expect(again.json().text).toEqual({ key: 'certificates.upload.none' });
  });
});
