// Test support for POST /api/test-ssh: a signed-in client, the request body, the error it
// answers, and configuration rows to resume.
import { join } from 'node:path';
import type { TLanguage } from '@portico/shared/api-error';
import { translate } from '@portico/shared/i18n/translate';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { TDatabase } from '../../src/db/client';
import { proxyConfigurations } from '../../src/db/schema';
import { openSecretBox, secretAad } from '../../src/lib/secrets';
import { sshTargetOf } from '../../src/modules/ssh-servers/server-credentials';
import { testTempDir } from './temp-dir';
import type { TTestApp } from './test-app';
import { newCredentials, TestClient } from './test-client';

/**
 * A fresh key file per test file (created on first use, as on a first start); its folder is
 * removed when the test process ends, so no key is left behind in the temp dir.
 */
export function testSecretKeyFile(): string {
  return join(testTempDir('portico-checks-key-'), 'secret.key');
}

export async function signedInClient(app: TTestApp['app'], lang = 'en') {
  const client = new TestClient(app, { headers: { 'accept-language': lang } });
  const response = await client.register(newCredentials('ssh'));
  expect(response.statusCode).toBe(201);
  return { client, userId: response.json().user.id as string };
}

/** Saves a lab server's login (password) as a saved SSH server; resolves with its id. */
export async function saveLabServer(
  client: TestClient,
  server: { name: string; address: string },
  user: { name: string; password: string },
): Promise<string> {
  const created = await client.write('POST', '/api/ssh-servers', {
    name: `${server.name}-${user.name}`,
    host: server.address,
    username: user.name,
    password: user.password,
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json().id as string;
}

/** The error POST /api/test-ssh answers for a cause (`checks.ssh.cause.*`), in `lang`. */
export function sshCheckFailed(lang: TLanguage, causeKey: string, params = {}): string {
  return translate(lang, 'checks.ssh.failed', { cause: translate(lang, causeKey, params) });
}

/** A POST /api/test-ssh body for root on 127.0.0.1:`port`; `overrides` may drop a field. */
export function testSshBody(
  port: number,
  password: string,
  overrides: Record<string, unknown> = {},
) {
  return { serverIp: '127.0.0.1', username: 'root', port, password, ...overrides };
}

let domains = 0;

/** A saved configuration as the proxies module stores it: password encrypted with its row id. */
export async function insertConfiguration(
  database: TDatabase,
  keyFile: string,
  row: {
    userId: string;
    serverIp: string;
    sshPort: number;
    sshUser: string;
    password?: string;
    hostKeyFingerprint?: string;
  },
): Promise<string> {
  domains += 1;
  const [inserted] = await database.db
    .insert(proxyConfigurations)
    .values({
      userId: row.userId,
      domain: `resume-${process.pid}-${domains}.portico.test`,
      serverIp: row.serverIp,
      sshPort: row.sshPort,
      sshUser: row.sshUser,
      email: 'admin@portico.test',
      hostKeyFingerprint: row.hostKeyFingerprint ?? null,
    })
    .returning({ id: proxyConfigurations.id });
  const id = inserted!.id;
  if (row.password !== undefined) {
    const enc = openSecretBox(keyFile).encrypt(row.password, secretAad('proxy', id, 'sshPassword'));
    await database.db
      .update(proxyConfigurations)
      .set({ sshPasswordEnc: enc, sshPasswordTarget: sshTargetOf(row) })
      .where(eq(proxyConfigurations.id, id));
  }
  return id;
}
