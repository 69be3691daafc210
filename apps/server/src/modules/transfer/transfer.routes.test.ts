// Export and import of one account's servers and proxies, on PGlite and PostgreSQL: a round trip
// between two instances with their own secret keys gives the same export back; secrets leave
// only sealed under a passphrase; a refused import writes nothing, in the caller's language.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { translate } from '@portico/shared/i18n/translate';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertManyProxies } from '../../../test/support/many-proxies';
import {
  SSH_PASSWORD,
  signedInClient as signedInFrom,
  uniqueDomain,
} from '../../../test/support/proxies-test-helpers';
import { decryptedSecrets } from '../../../test/support/stored-secrets';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import type { TestClient } from '../../../test/support/test-client';
import { testDatabaseKinds } from '../../../test/support/test-database';
import { accountLimits, auditLog, proxyConfigurations, sshServers } from '../../db/schema';

const PASSPHRASE = 'correct horse battery staple';
const SERVER_PASSWORD = 'Saved-Server-Pa55word';
const SUDO = 'Sudo-Pa55word-for-deploy';
const HASH = `$6$saltsalt$${'a'.repeat(86)}`;

let addresses = 0;
const signedInClient = (t: TTestApp) =>
  signedInFrom(t, 'user', `198.19.${Math.floor(++addresses / 250)}.${addresses % 250}`);

type TDocument = {
  sealing: unknown;
  exportedAt: string;
  servers: Record<string, unknown>[];
  proxies: Record<string, unknown>[];
};

async function exportOf(client: TestClient, passphrase?: string): Promise<TDocument> {
  const response = await client.write(
    'POST',
    '/api/account/export',
    passphrase ? { passphrase } : {},
  );
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-disposition']).toMatch(/^attachment; filename="portico-export-/);
  return JSON.parse(response.body) as TDocument;
}

/** What must survive a round trip: everything but where it came from and how it was sealed. */
function comparable(doc: TDocument) {
  const refs = new Map(doc.servers.map((s, i) => [s.ref, i]));
  return {
    servers: doc.servers.map(({ ref: _, secrets, ...s }) => ({
      ...s,
      secrets: Object.keys((secrets as object | undefined) ?? {}).sort(),
    })),
    proxies: doc.proxies.map(({ server, password, ...p }) => ({
      ...p,
      server: server === null ? null : refs.get(server),
      password: password !== undefined,
    })),
  };
}

describe.each(testDatabaseKinds())('export and import on %s', (kind) => {
  let a: TTestApp;
  let b: TTestApp;
  const dir = mkdtempSync(join(tmpdir(), 'portico-transfer-'));
  const keyA = join(dir, 'a.key');
  const keyB = join(dir, 'b.key');
  beforeAll(async () => {
    a = await createTestApp(kind, { deploy: { workers: 0 }, config: { secretKeyFile: keyA } });
    b = await createTestApp(kind, { deploy: { workers: 0 }, config: { secretKeyFile: keyB } });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** An account on A with a password server, a key server and three kinds of proxy. */
  async function accountOnA() {
    const { client, user } = await signedInClient(a);
    const passwordServer = await client.write('POST', '/api/ssh-servers', {
      name: 'web-1',
      host: '203.0.113.20',
      username: 'deploy',
      password: SERVER_PASSWORD,
      description: 'the first one',
    });
    expect(passwordServer.statusCode, passwordServer.body).toBe(201);
    const keyServer = await client.write('POST', '/api/ssh-servers', {
      name: 'web-2',
      host: '203.0.113.21',
      authKind: 'key',
      generateKey: true,
      sudoPassword: SUDO,
    });
    expect(keyServer.statusCode, keyServer.body).toBe(201);
    const onServer = await client.write('POST', '/api/proxy-configurations', {
      sshServerId: keyServer.json().id,
      domain: uniqueDomain('on-server'),
      email: 'owner@example.com',
      targetServer: 'http://10.0.0.5:8080',
      options: {
        upstreams: [{ url: 'http://10.0.0.5:8080' }],
        basicAuth: [{ username: 'alice', password: 'Alice-pa55word' }],
      },
    });
    expect(onServer.statusCode, onServer.body).toBe(200);
    const typed = await client.write('POST', '/api/proxy-configurations', {
      serverIp: '203.0.113.30',
      domain: uniqueDomain('typed'),
      sshUser: 'root',
      sshPassword: SSH_PASSWORD,
      email: 'owner@example.com',
      targetServer: 'http://10.0.0.6:3000',
    });
    expect(typed.statusCode, typed.body).toBe(200);
    return { client, user };
  }

  const count = async (t: TTestApp, userId: string) => ({
    servers: (await t.database.db.select().from(sshServers).where(eq(sshServers.userId, userId)))
      .length,
    proxies: (
      await t.database.db
        .select()
        .from(proxyConfigurations)
        .where(eq(proxyConfigurations.userId, userId))
    ).length,
  });

  it('round trip with a passphrase: B exports what A did, and every secret opens under B’s key', async () => {
    const { client } = await accountOnA();
    const exported = await exportOf(client, PASSPHRASE);
    expect(exported.servers).toHaveLength(3);
    expect(exported.proxies).toHaveLength(2);
    const text = JSON.stringify(exported);
    for (const secret of [SERVER_PASSWORD, SUDO, SSH_PASSWORD, 'PRIVATE KEY', 'Alice-pa55word']) {
      expect(text).not.toContain(secret);
    }

    const target = await signedInClient(b);
    const imported = await target.client.write('POST', '/api/account/import', {
      document: exported,
      passphrase: PASSPHRASE,
    });
    expect(imported.statusCode, imported.body).toBe(200);
    // The password server's, the key server's key and sudo password, the typed server's and
    // the typed proxy's own password.
    expect(imported.json()).toEqual({ servers: 3, proxies: 2, secrets: 5 });

    const again = await exportOf(target.client, PASSPHRASE);
    expect(comparable(again)).toEqual(comparable(exported));
    const onB = await decryptedSecrets(b.database, keyB);
    for (const secret of [SERVER_PASSWORD, SUDO, SSH_PASSWORD]) expect(onB).toContain(secret);
    expect(onB.some((s) => s.includes('OPENSSH PRIVATE KEY'))).toBe(true);

    const audit = await b.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.targetId, target.user.id));
    expect(audit.map((row) => row.action).sort()).toEqual(['account.export', 'account.import']);
  });

  it('without a passphrase no secret leaves, and the imported servers hold none', async () => {
    const { client } = await accountOnA();
    const exported = await exportOf(client);
    expect(exported.sealing).toBeNull();
    expect(exported.servers.every((s) => s.secrets === undefined)).toBe(true);
    expect(exported.proxies.every((p) => p.password === undefined)).toBe(true);
    const target = await signedInClient(b);
    const imported = await target.client.write('POST', '/api/account/import', {
      document: exported,
    });
    expect(imported.json()).toEqual({ servers: 3, proxies: 2, secrets: 0 });
    const rows = await b.database.db
      .select()
      .from(sshServers)
      .where(eq(sshServers.userId, target.user.id));
    expect(rows.every((r) => r.passwordEnc === null && r.privateKeyEnc === null)).toBe(true);
    expect(comparable(await exportOf(target.client))).toEqual(comparable(exported));
  });

  it('streams a long export in order, batch after batch', async () => {
    const { client, user } = await signedInClient(a);
    await insertManyProxies(a.database.db, user.id, 1_203, {
      prefix: `many-${kind}-${process.pid}`,
      shape: () => ({ options: { basicAuth: [{ username: 'bob', passwordHash: HASH }] } }),
    });
    const exported = await exportOf(client);
    expect(exported.proxies).toHaveLength(1_203);
    expect(new Set(exported.proxies.map((p) => p.domain)).size).toBe(1_203);
  });

  it('refuses a wrong or missing passphrase, a taken domain, a dangling server and a full account; nothing is written', async () => {
    const { client } = await accountOnA();
    const exported = await exportOf(client, PASSPHRASE);
    const target = await signedInClient(b);
    const before = await count(b, target.user.id);
    const importing = (body: Record<string, unknown>, language = 'en') =>
      target.client.write('POST', '/api/account/import', body, { 'accept-language': language });

    const wrong = await importing({ document: exported, passphrase: 'not the passphrase' }, 'es');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      code: 'import_wrong_passphrase',
      message: translate('es', 'errors.importWrongPassphrase'),
      text: { key: 'errors.importWrongPassphrase' },
    });
    const missing = await importing({ document: exported });
    expect(missing.json()).toMatchObject({ code: 'import_passphrase_needed' });

    // A sealed secret copied onto another entry does not open there, even at the same target.
    const moved = structuredClone(exported);
    const [first, second] = moved.servers as Record<string, unknown>[];
    Object.assign(second!, {
      host: first!.host,
      port: first!.port,
      username: first!.username,
      authKind: 'password',
      secrets: { password: (first!.secrets as Record<string, string>).password },
    });
    const tampered = await importing({ document: moved, passphrase: PASSPHRASE });
    expect(tampered.json()).toMatchObject({ statusCode: 400, code: 'import_damaged' });

    const dangling = structuredClone(exported);
    dangling.proxies[0]!.server = 'no-such-server';
    const refused = await importing({ document: dangling, passphrase: PASSPHRASE }, 'es');
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain(translate('es', 'validation.import.unknownServer'));

    const foreign = await importing({ document: { format: 'something-else' } });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.body).toContain(translate('en', 'validation.import.notAnExport'));

    // Taken: the same export imported once, then again.
    const other = await signedInClient(b);
    expect(
      (
        await other.client.write('POST', '/api/account/import', {
          document: exported,
          passphrase: PASSPHRASE,
        })
      ).statusCode,
    ).toBe(200);
    const taken = await importing({ document: exported, passphrase: PASSPHRASE });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({
      code: 'import_domains_taken',
      text: { key: 'errors.importDomainsTaken', params: { count: 2 } },
    });

    // Full: a limit of one proxy refuses the two, and the servers checked before stay out too.
    const renamed = structuredClone(exported);
    for (const p of renamed.proxies) {
      p.domain = uniqueDomain('renamed');
      // Sealed for its domain: renamed in the file, it would no longer open.
      delete p.password;
    }
    await b.database.db.insert(accountLimits).values({ userId: target.user.id, proxies: 1 });
    const full = await importing({ document: renamed, passphrase: PASSPHRASE });
    expect(full.statusCode).toBe(409);
    expect(full.json()).toMatchObject({ code: 'limit_reached' });

    expect(await count(b, target.user.id)).toEqual(before);
    const audit = await b.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.targetId, target.user.id));
    expect(audit.filter((row) => row.action === 'account.import')).toEqual([]);
  });

  it('refuses a short passphrase for an export, in the caller’s language', async () => {
    const { client } = await signedInClient(a);
    const response = await client.write(
      'POST',
      '/api/account/export',
      { passphrase: 'short' },
      { 'accept-language': 'es' },
    );
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain(translate('es', 'validation.import.passphraseShort'));
  });
});
