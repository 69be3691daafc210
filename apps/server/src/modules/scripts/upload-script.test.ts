// POST /api/upload-script with real multipart bodies through app.inject; on PGlite and on
// PostgreSQL when TEST_DATABASE_URL is set.
import { randomBytes } from 'node:crypto';
import { translate } from '@portico/shared/i18n/translate';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import { newCredentials, TestClient } from '../../../test/support/test-client';
import { testDatabaseKinds } from '../../../test/support/test-database';
import { proxyConfigurations, session } from '../../db/schema';
import { MAX_SCRIPT_BYTES } from './script-file';

interface TPart {
  name: string;
  filename?: string;
  content: string | Buffer;
}

/** A multipart/form-data body written by hand, as a browser sends it. */
function multipart(parts: TPart[]) {
  const boundary = `----portico${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = part.filename
      ? `form-data; name="${part.name}"; filename="${part.filename}"`
      : `form-data; name="${part.name}"`;
    const type = part.filename ? 'Content-Type: application/x-sh\r\n' : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`));
    chunks.push(Buffer.from(part.content));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}

const SCRIPT = '#!/bin/sh\necho "hello from $PORTICO_DOMAIN"\n';

async function upload(client: TestClient, parts: TPart[], query = '', lang = 'en') {
  const token = client.csrfToken ?? (await client.fetchCsrfToken());
  const { body, type } = multipart(parts);
  return client.request({
    method: 'POST',
    url: `/api/upload-script${query}`,
    payload: body,
    headers: { 'content-type': type, 'x-csrf-token': token, 'accept-language': lang },
  });
}

const scriptPart = (filename: string, content: string | Buffer = SCRIPT): TPart => ({
  name: 'script',
  filename,
  content,
});

describe.each(testDatabaseKinds())('POST /api/upload-script on %s', (kind) => {
  let t: TTestApp;
  let domains = 0;

  async function signedIn() {
    const client = new TestClient(t.app, { headers: { 'accept-language': 'en' } });
    const response = await client.register(newCredentials('script'));
    expect(response.statusCode).toBe(201);
    return { client, userId: response.json().user.id as string };
  }

  async function configurationOf(userId: string) {
    domains += 1;
    const [row] = await t.database.db
      .insert(proxyConfigurations)
      .values({
        userId,
        domain: `script-${process.pid}-${domains}.portico.test`,
        serverIp: '203.0.113.10',
        email: 'admin@portico.test',
      })
      .returning();
    return row!.id;
  }

  const storedScript = async (id: string) =>
    (
      await t.database.db
        .select({
          name: proxyConfigurations.customScriptName,
          content: proxyConfigurations.customScript,
        })
        .from(proxyConfigurations)
        .where(eq(proxyConfigurations.id, id))
    )[0];

  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('keeps a script uploaded before the configuration exists in the session', async () => {
    const { client } = await signedIn();
    const name = `setup-${randomBytes(4).toString('hex')}.sh`;
    const response = await upload(client, [scriptPart(name)]);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ filename: name });
    const rows = await t.database.db.select().from(session);
    const held = rows
      .map((row) => row.sess.pendingScript as { name: string; content: string } | undefined)
      .find((script) => script?.name === name);
    expect(held).toEqual({ name, content: SCRIPT });
  });

  it('stores the script on the caller own configuration', async () => {
    const { client, userId } = await signedIn();
    const id = await configurationOf(userId);
    const response = await upload(
      client,
      [scriptPart('post_deploy.v2.sh')],
      `?configurationId=${id}`,
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ filename: 'post_deploy.v2.sh' });
    expect(await storedScript(id)).toEqual({ name: 'post_deploy.v2.sh', content: SCRIPT });
  });

  it('answers 404 for another user configuration and stores nothing', async () => {
    const owner = await signedIn();
    const id = await configurationOf(owner.userId);
    const { client } = await signedIn();
    const response = await upload(client, [scriptPart('x.sh')], `?configurationId=${id}`);
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe(translate('en', 'errors.notFound'));
    expect(await storedScript(id)).toEqual({ name: null, content: null });
    const malformed = await upload(client, [scriptPart('x.sh')], '?configurationId=42');
    expect(malformed.statusCode).toBe(400);
  });

  it('accepts exactly 64 KiB and refuses one byte more', async () => {
    const { client } = await signedIn();
    const line = '# filler line for the size limit\n';
    const exact = (line.repeat(Math.ceil(MAX_SCRIPT_BYTES / line.length)) + SCRIPT).slice(
      -MAX_SCRIPT_BYTES,
    );
    expect(Buffer.byteLength(exact)).toBe(MAX_SCRIPT_BYTES);
    expect((await upload(client, [scriptPart('big.sh', exact)])).statusCode).toBe(200);
    const over = await upload(client, [scriptPart('big.sh', `${exact}#`)]);
    expect(over.statusCode).toBe(400);
    expect(over.json()).toMatchObject({
      code: 'script_rejected',
      message: 'The script is larger than 64 KiB.',
    });
    const huge = await upload(client, [scriptPart('huge.sh', Buffer.alloc(1024 * 1024, 'a'))]);
    expect(huge.statusCode).toBe(400);
    expect(huge.json().message).toBe(translate('en', 'checks.script.tooLarge'));
  });

  it('refuses each bad file with its own message, in the caller language', async () => {
    const { client } = await signedIn();
    const cases: [TPart[], string][] = [
      [[scriptPart('deploy.txt')], 'checks.script.extension'],
      [[scriptPart('deploy.SH')], 'checks.script.extension'],
      [[scriptPart('deploy')], 'checks.script.extension'],
      [[scriptPart('my script.sh')], 'checks.script.name'],
      [[scriptPart('.hidden.sh')], 'checks.script.name'],
      [[scriptPart('<b>x</b>.sh')], 'checks.script.name'],
      [[scriptPart('bin.sh', Buffer.from([0x23, 0x21, 0x00, 0x01]))], 'checks.script.binary'],
      [
        [scriptPart('latin1.sh', Buffer.from([0x65, 0x63, 0x68, 0x6f, 0x20, 0xe9, 0x0a]))],
        'checks.script.binary',
      ],
      [[scriptPart('empty.sh', '')], 'checks.script.empty'],
      [[{ name: 'file', filename: 'x.sh', content: SCRIPT }], 'checks.script.missing'],
      [[{ name: 'script', content: SCRIPT }], 'checks.script.missing'],
    ];
    for (const lang of ['en', 'es'] as const) {
      for (const [parts, key] of cases) {
        const response = await upload(client, parts, '', lang);
        expect(response.statusCode, `${parts[0]!.filename} ${key}`).toBe(400);
        expect(response.json()).toEqual({
          statusCode: 400,
          code: 'script_rejected',
          message: translate(lang, key),
          text: { key },
        });
      }
    }
    const json = await client.write('POST', '/api/upload-script', { script: SCRIPT });
    expect(json.statusCode).toBe(400);
    expect(json.json().message).toBe(translate('en', 'checks.script.missing'));
  });

  it('answers 413 with the translated text when the form has too many parts', async () => {
    const { client } = await signedIn();
    const fields = Array.from({ length: 8 }, (_, i) => ({ name: `f${i}`, content: 'x' }));
    const response = await upload(client, [...fields, scriptPart('x.sh')], '', 'es');
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({
      code: 'payload_too_large',
      message: translate('es', 'errors.payloadTooLarge'),
    });
  });

  it('needs a signed-in user and the CSRF token', async () => {
    const anonymous = new TestClient(t.app, { headers: { 'accept-language': 'en' } });
    expect((await upload(anonymous, [scriptPart('x.sh')])).statusCode).toBe(401);
    const { client } = await signedIn();
    const { body, type } = multipart([scriptPart('x.sh')]);
    const noToken = await client.request({
      method: 'POST',
      url: '/api/upload-script',
      payload: body,
      headers: { 'content-type': type },
    });
    expect(noToken.statusCode).toBe(403);
  });
});
