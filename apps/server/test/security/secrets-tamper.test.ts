// Secrets: every way a stored SSH password can be damaged in the database (each part of
// base64(version | iv | tag | ciphertext), a truncation, a non-base64 value) ends the same clean
// way through the API: the redeploy fails with a translated line, the resumed SSH test and the
// delete with removal answer a clear error, nothing stays in deploying, nothing is 'internal',
// and the owner can still delete the configuration from Portico only.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proxyConfigurations } from '../../src/db/schema';
import {
  createProxy,
  SSH_PASSWORD,
  seedServerSite,
  signedInClient,
} from '../support/proxies-test-helpers';
import { createTestApp, type TTestApp } from '../support/test-app';
import type { TestClient } from '../support/test-client';
import { testDatabaseKinds } from '../support/test-database';

const IV = 1;
const TAG = 1 + 12;
const BODY = 1 + 12 + 16;

function flipAt(offset: number) {
  return (stored: string) => {
    const raw = Buffer.from(stored, 'base64');
    raw.writeUInt8(raw.readUInt8(offset) ^ 0x80, offset);
    return raw.toString('base64');
  };
}

const DAMAGE: [string, (stored: string) => string][] = [
  ['the version byte', flipAt(0)],
  ['the IV', flipAt(IV + 4)],
  ['the tag', flipAt(TAG + 7)],
  ['the ciphertext', flipAt(BODY)],
  ['a truncation', (s) => Buffer.from(s, 'base64').subarray(0, BODY).toString('base64')],
  ['a value that is not base64', (s) => `${s.slice(0, -4)}!!!!`],
];

async function until(client: TestClient, id: string) {
  for (let i = 0; i < 300; i += 1) {
    const r = await client.request({ method: 'GET', url: `/api/proxy-configurations/${id}` });
    if (r.json().status !== 'deploying') return r.json();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('still deploying after 30 s');
}

describe.each(testDatabaseKinds())('a damaged stored password on %s', (kind) => {
  let t: TTestApp;
  let keyDir: string;
  beforeAll(async () => {
    keyDir = mkdtempSync(join(tmpdir(), 'portico-tamper-key-'));
    // One key file for the SSH test and the proxies and runs, as main.ts passes it.
    const secretKeyFile = join(keyDir, 'secret.key');
    t = await createTestApp(kind, { config: { secretKeyFile } });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(keyDir, { recursive: true, force: true });
  });

  it('control: the intact stored password gets as far as the SSH connection', async () => {
    const { client } = await signedInClient(t);
    const { id } = await createProxy(client, { serverIp: '127.0.0.1', sshPort: 1 });
    const resumed = await client.write('POST', '/api/test-ssh', {
      serverIp: '127.0.0.1',
      username: 'root',
      port: 1,
      configurationId: id,
    });
    expect(resumed.statusCode).toBe(200);
    expect(resumed.json()).toMatchObject({ connected: false, error: expect.any(String) });
  });

  it.each(DAMAGE)(
    '%s: clean failures everywhere, and delete from Portico only still works',
    async (_, damage) => {
      const { client } = await signedInClient(t);
      const { id, input } = await createProxy(client, { serverIp: '127.0.0.1', sshPort: 1 });
      const [row] = await t.database.db
        .select({ stored: proxyConfigurations.sshPasswordEnc })
        .from(proxyConfigurations)
        .where(eq(proxyConfigurations.id, id));
      await t.database.db
        .update(proxyConfigurations)
        .set({ sshPasswordEnc: damage(row!.stored!), status: 'completed' })
        .where(eq(proxyConfigurations.id, id));
      await seedServerSite(t, id);

      for (const [language, start] of [
        [
          'en',
          'Stored secrets cannot be read: the SSH password saved for this configuration does not',
        ],
        ['es', 'No se pueden leer los secretos guardados: la contraseña SSH guardada para esta'],
      ] as const) {
        const started = await client.write(
          'POST',
          `/api/proxy-configurations/${id}/redeploy`,
          undefined,
          { 'accept-language': language },
        );
        expect(started.statusCode, started.body).toBe(202);
        expect((await until(client, id)).status).toBe('failed');
        const lines = (
          await client.request({
            method: 'GET',
            url: `/api/deployment-logs/${id}`,
            headers: { 'accept-language': language },
          })
        ).json();
        expect(lines.at(-1)).toMatchObject({
          level: 'error',
          message: expect.stringMatching(`^${start}`),
        });
      }

      const resumed = await client.write('POST', '/api/test-ssh', {
        serverIp: input.serverIp,
        username: input.sshUser,
        port: 1,
        configurationId: id,
      });
      const removal = await client.write('DELETE', `/api/proxy-configurations/${id}`);
      for (const answer of [resumed, removal]) {
        expect(answer.statusCode).toBe(500);
        expect(answer.json().code).not.toBe('internal');
        // The cause (the stored value, not the key file) and the way out.
        expect(answer.json().message).toMatch(
          /^Stored secrets cannot be read: the SSH password saved/,
        );
        expect(answer.json().message).toContain('Enter the SSH password again.');
        expect(answer.body).not.toContain(SSH_PASSWORD);
      }
      const portico = await client.write(
        'DELETE',
        `/api/proxy-configurations/${id}?removeFromServer=false`,
      );
      expect(portico.json()).toEqual({ success: true, removedFromServer: false });
    },
  );
});
