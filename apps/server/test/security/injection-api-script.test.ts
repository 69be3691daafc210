// Injection, the custom script's file name (POST /api/upload-script): shown in the UI
// and stored, so it must never carry a path, markup, quotes or control characters. Names fuzzed
// with the shared corpus travel as RFC 5987 `filename*` (percent-encoded UTF-8), which carries any
// character a browser could send, newlines and NUL included.
import { randomBytes } from 'node:crypto';
import type { TLanguage } from '@portico/shared/api-error';
import { translate } from '@portico/shared/i18n/translate';
import { asc, eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proxyConfigurations, session } from '../../src/db/schema';
import { createProxy, signedInClient } from '../support/proxies-test-helpers';
import { createTestApp, type TTestApp } from '../support/test-app';
import type { TestClient } from '../support/test-client';
import { explicitValues, language, plantedValues, shown } from './injection-api-helpers';
import { validScriptName } from './injection-corpus';

const RUNS = 60;
/** Under the per-user upload limit (30 a minute): a fresh user after this many uploads. */
const UPLOADS_PER_USER = 25;

/** A one-file multipart body with the name as `filename*=UTF-8''…`. */
function multipart(filename: string, content = '#!/bin/sh\necho hi\n') {
  const boundary = `----portico${randomBytes(8).toString('hex')}`;
  const encoded = Buffer.from(filename, 'utf8').toString('hex').replace(/(..)/g, '%$1');
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="script"; filename*=UTF-8''${encoded}` +
    '\r\nContent-Type: application/x-sh\r\n\r\n';
  return {
    body: Buffer.concat([
      Buffer.from(head),
      Buffer.from(content),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

describe('injection: the script file name', () => {
  let t: TTestApp;
  let current: { client: TestClient; configurationId: string; uploads: number } | undefined;

  beforeAll(async () => {
    t = await createTestApp('pglite');
  });
  afterAll(async () => t?.close());

  async function uploader() {
    if (!current || current.uploads >= UPLOADS_PER_USER) {
      const { client } = await signedInClient(t);
      const { id } = await createProxy(client);
      current = { client, configurationId: id, uploads: 0 };
    }
    current.uploads += 1;
    return current;
  }

  async function upload(name: string, lang: TLanguage) {
    const { client, configurationId } = await uploader();
    const token = client.csrfToken ?? (await client.fetchCsrfToken());
    const { body, type } = multipart(name);
    return client.request({
      method: 'POST',
      url: `/api/upload-script?configurationId=${configurationId}`,
      payload: body,
      headers: { 'content-type': type, 'x-csrf-token': token, 'accept-language': lang },
    });
  }

  /** Every script held anywhere (configuration columns, sessions), to prove nothing was kept. */
  async function stored(): Promise<string> {
    const db = t.database.db;
    const rows = await db
      .select({
        id: proxyConfigurations.id,
        name: proxyConfigurations.customScriptName,
        content: proxyConfigurations.customScript,
      })
      .from(proxyConfigurations)
      .orderBy(asc(proxyConfigurations.id));
    const sessions = await db.select().from(session).orderBy(asc(session.sid));
    return JSON.stringify([
      rows.filter((r) => r.name !== null || r.content !== null),
      sessions.map((s) => s.sess.pendingScript).filter(Boolean),
    ]);
  }

  async function expectRefused(name: string, lang: TLanguage) {
    const response = await upload(name, lang);
    const what = `filename=${shown(name)}`;
    expect(response.statusCode, `${what}: ${response.body}`).toBe(400);
    const body = response.json();
    expect(body.code, what).toBe('script_rejected');
    // A name busboy cannot read back (a CR in filename*) leaves the part without a file: it is
    // refused as a missing script, still a 400 in the caller's language.
    const messages = ['checks.script.name', 'checks.script.extension', 'checks.script.missing'].map(
      (k) => translate(lang, k),
    );
    expect(messages, what).toContain(body.message);
  }

  it('control: a valid name arrives intact through filename* and is stored', async () => {
    const { client, configurationId } = await uploader();
    current!.uploads -= 1;
    const name = 'post-deploy_v2.sh';
    const token = client.csrfToken ?? (await client.fetchCsrfToken());
    const { body, type } = multipart(name);
    const response = await client.request({
      method: 'POST',
      url: `/api/upload-script?configurationId=${configurationId}`,
      payload: body,
      headers: { 'content-type': type, 'x-csrf-token': token },
    });
    expect(response.json()).toEqual({ filename: name });
    const [row] = await t.database.db
      .select({ name: proxyConfigurations.customScriptName })
      .from(proxyConfigurations)
      .where(eq(proxyConfigurations.id, configurationId));
    expect(row!.name).toBe(name);
    // Later uploads go to fresh configurations.
    current = undefined;
  });

  it('corpus fragments planted in a valid name: 400 in the caller language, nothing stored', async () => {
    const before = await stored();
    await fc.assert(
      fc.asyncProperty(
        plantedValues('scriptName', validScriptName),
        language,
        async ({ value }, lang) => {
          await expectRefused(value, lang);
        },
      ),
      { numRuns: RUNS },
    );
    expect(await stored()).toBe(before);
  });

  it('hand-picked hostile names: 400 in the caller language, nothing stored', async () => {
    const before = await stored();
    const names = explicitValues('scriptName').filter((v): v is string => typeof v === 'string');
    for (const [i, name] of names.entries()) await expectRefused(name, i % 2 ? 'en' : 'es');
    expect(await stored()).toBe(before);
  });
});
