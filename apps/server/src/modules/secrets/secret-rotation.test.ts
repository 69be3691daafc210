import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq, isNotNull } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createProxy,
  SSH_PASSWORD,
  signedInClient,
} from '../../../test/support/proxies-test-helpers';
import { removeTestTempDir, testTempDir } from '../../../test/support/temp-dir';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import { testDatabaseKinds } from '../../../test/support/test-database';
import { testClock, turnOnTwoFactor } from '../../../test/support/two-factor-test-helpers';
import { proxyConfigurations, sshServers } from '../../db/schema';
import {
  decryptSecret,
  encryptSecret,
  loadOrCreateKey,
  newSecretKey,
  secretAad,
  secretBoxLoader,
} from '../../lib/secrets';
import { createCertificateSecrets } from '../certificates/certificate-secrets.repository';
import { customCertificateKeyAad } from '../certificates/custom-certificate-secret';
import { createCustomCertificatesRepository } from '../certificates/custom-certificates.repository';
import { dnsChallengeAad } from '../certificates/dns-challenge-secret';
import { createDnsChallengesRepository } from '../certificates/dns-challenges.repository';
import { createNotificationsRepository } from '../notifications/notifications.repository';
import { createProxiesOnServers } from '../proxies/proxies-on-servers.repository';
import { createProxyCredentials } from '../proxies/proxy-credentials.repository';
import { createServerCredentials } from '../ssh-servers/server-credentials';
import { createServerReads } from '../ssh-servers/server-reads.repository';
import { createSshServersRepository } from '../ssh-servers/ssh-servers.repository';
import { createUserSecrets } from '../users/user-secrets.repository';
import { rotateSecretKey, SecretRotationError } from './secret-rotation';
import { createSecretsRepository, storedSecretAad } from './secrets.repository';

/** The owners' reads the rotation asks, as services.ts and the CLI hand them over. */
const OWNER_READS = {
  proxies: createProxyCredentials,
  servers: createServerReads,
  notifications: createNotificationsRepository,
  certificates: createCertificateSecrets,
  users: createUserSecrets,
};

describe.each(testDatabaseKinds())('rotating the secret key on %s', (kind) => {
  let t: TTestApp;
  let keyDir: string;
  let keyFile: string;
  // A fresh app and key file for each rotation: Portico is stopped while the key rotates and the
  // app reads the key file once (lib/secrets.ts secretBoxLoader), so an app kept running across
  // a rotation would seal new values with the key it read before.
  beforeEach(async () => {
    keyDir = testTempDir('portico-rotate-');
    keyFile = join(keyDir, 'secret.key');
    t = await createTestApp(kind, { config: { secretKeyFile: keyFile }, deploy: { workers: 0 } });
  });
  afterEach(async () => {
    await t?.close();
    removeTestTempDir(keyDir);
  });

  const stored = async () =>
    (
      await t.database.db
        .select({ id: proxyConfigurations.id, enc: proxyConfigurations.sshPasswordEnc })
        .from(proxyConfigurations)
    ).filter((r) => r.enc !== null) as { id: string; enc: string }[];
  const readsWith = (key: Buffer, row: { id: string; enc: string }) =>
    decryptSecret(key, row.enc, secretAad('proxy', row.id, 'sshPassword'));

  it('re-encrypts every password with a new key, keeping the old key beside it', async () => {
    const { client } = await signedInClient(t);
    await createProxy(client);
    await createProxy(client, { sshPassword: 'another-Password-2' });
    const oldKey = loadOrCreateKey(keyFile);
    const before = await stored();
    expect(before.length).toBeGreaterThanOrEqual(2);

    // The server the proxies' typed fields saved holds the password too.
    const servers = await t.database.db
      .select({ id: sshServers.id })
      .from(sshServers)
      .where(isNotNull(sshServers.passwordEnc));
    expect(servers.length).toBeGreaterThanOrEqual(1);
    const result = await rotateSecretKey(
      keyFile,
      createSecretsRepository(t.database.db, OWNER_READS),
    );
    expect(result).toMatchObject({ rotated: before.length + servers.length, resumed: false });

    const newKey = readFileSync(keyFile);
    expect(newKey.equals(oldKey)).toBe(false);
    expect(readFileSync(result.previousKeyFile).equals(oldKey)).toBe(true);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(statSync(result.previousKeyFile).mode & 0o777).toBe(0o600);
    expect(existsSync(`${keyFile}.next`)).toBe(false);
    const after = await stored();
    for (const row of after) {
      expect(() => readsWith(oldKey, row)).toThrow();
      expect(['another-Password-2', SSH_PASSWORD]).toContain(readsWith(newKey, row));
    }
  });

  it('re-encrypts the two-factor secrets with the SSH passwords, in the same transaction', async () => {
    const { client } = await signedInClient(t);
    const { secret } = await turnOnTwoFactor(client, testClock(Date.now() - 30_000));
    const repository = createSecretsRepository(t.database.db, OWNER_READS);
    const oldKey = readFileSync(keyFile);
    const before = (await repository.listSecrets()).filter((s) => s.kind === 'user');
    expect(before).toHaveLength(1);
    expect(decryptSecret(oldKey, before[0]!.stored, storedSecretAad(before[0]!))).toBe(secret);

    const result = await rotateSecretKey(keyFile, repository);
    const newKey = readFileSync(keyFile);
    const after = await repository.listSecrets();
    expect(result.rotated).toBe(after.length);
    const [totp] = after.filter((s) => s.kind === 'user');
    expect(totp!.stored).not.toBe(before[0]!.stored);
    expect(decryptSecret(newKey, totp!.stored, storedSecretAad(totp!))).toBe(secret);
    expect(() => decryptSecret(oldKey, totp!.stored, storedSecretAad(totp!))).toThrow();
  });

  it('re-encrypts the alert webhook URLs too', async () => {
    const { client } = await signedInClient(t);
    const url = 'https://93.184.215.14/services/T1/B2/alert-webhook-secret';
    const saved = await client.write('PUT', '/api/account/notifications', {
      emailEnabled: true,
      webhookUrl: url,
    });
    expect(saved.statusCode).toBe(200);
    const repository = createSecretsRepository(t.database.db, OWNER_READS);
    const oldKey = readFileSync(keyFile);
    const [before] = (await repository.listSecrets()).filter((s) => s.kind === 'webhook');
    expect(decryptSecret(oldKey, before!.stored, storedSecretAad(before!))).toBe(url);

    await rotateSecretKey(keyFile, repository);
    const newKey = readFileSync(keyFile);
    const [after] = (await repository.listSecrets()).filter((s) => s.kind === 'webhook');
    expect(after!.stored).not.toBe(before!.stored);
    expect(decryptSecret(newKey, after!.stored, storedSecretAad(after!))).toBe(url);
  });

  it('re-encrypts the saved servers’ secrets, each still bound to its target', async () => {
    const { user } = await signedInClient(t);
    const credentials = createServerCredentials(secretBoxLoader(keyFile), async () => undefined);
    const id = randomUUID();
    const target = { serverIp: '203.0.113.50', sshPort: 22, sshUser: 'root' };
    await createSshServersRepository(t.database.db, createProxiesOnServers).insert({
      id,
      userId: user.id,
      name: 'rotated',
      host: target.serverIp,
      authKind: 'key',
      privateKeyEnc: credentials.sealServerSecret(id, 'privateKey', 'PRIVATE-KEY-TEXT', target),
      sudoPasswordEnc: credentials.sealServerSecret(
        id,
        'sudoPassword',
        'rotated-sudo-Pa55',
        target,
      ),
    });
    const repository = createSecretsRepository(t.database.db, OWNER_READS);
    const mine = async () => (await repository.listSecrets()).filter((s) => s.id === id);
    const before = await mine();
    expect(before.map((s) => s.server?.field).sort()).toEqual(['privateKey', 'sudoPassword']);

    await rotateSecretKey(keyFile, repository);
    const newKey = readFileSync(keyFile);
    const after = await mine();
    const sudo = after.find((s) => s.server?.field === 'sudoPassword')!;
    expect(sudo.stored).not.toBe(before.find((s) => s.server?.field === 'sudoPassword')!.stored);
    expect(decryptSecret(newKey, sudo.stored, storedSecretAad(sudo))).toBe('rotated-sudo-Pa55');
    const key = after.find((s) => s.server?.field === 'privateKey')!;
    expect(decryptSecret(newKey, key.stored, storedSecretAad(key))).toBe('PRIVATE-KEY-TEXT');
  });

  it('re-encrypts the uploaded certificates’ private keys, each still bound to its proxy', async () => {
    const { client } = await signedInClient(t);
    const { id } = await createProxy(client);
    const aad = customCertificateKeyAad(id);
    await createCustomCertificatesRepository(t.database.db).save({
      configurationId: id,
      chainPem: 'CHAIN',
      privateKeyEnc: encryptSecret(readFileSync(keyFile), 'UPLOADED-KEY-TEXT', aad),
      fingerprint: 'AA',
      notBefore: new Date(),
      notAfter: new Date(),
      issuer: 'test',
      names: [],
      uploadedAt: new Date(),
    });
    const repository = createSecretsRepository(t.database.db, OWNER_READS);
    const mine = async () =>
      (await repository.listSecrets()).find((s) => s.kind === 'customCertificate' && s.id === id)!;
    const before = await mine();
    await rotateSecretKey(keyFile, repository);
    const after = await mine();
    expect(after.stored).not.toBe(before.stored);
    expect(decryptSecret(readFileSync(keyFile), after.stored, aad)).toBe('UPLOADED-KEY-TEXT');
  });

  it('re-encrypts the DNS provider credentials, still bound to their proxy and server', async () => {
    const { client } = await signedInClient(t);
    const { id } = await createProxy(client);
    const aad = dnsChallengeAad(id, '203.0.113.10');
    await createDnsChallengesRepository(t.database.db).save({
      configurationId: id,
      provider: 'cloudflare',
      includeApex: false,
      credentialsEnc: encryptSecret(readFileSync(keyFile), 'DNS-CREDENTIALS', aad),
      serverIp: '203.0.113.10',
      updatedAt: new Date(),
    });
    const repository = createSecretsRepository(t.database.db, OWNER_READS);
    const mine = async () =>
      (await repository.listSecrets()).find((s) => s.kind === 'dnsChallenge' && s.id === id)!;
    const before = await mine();
    await rotateSecretKey(keyFile, repository);
    const after = await mine();
    expect(after.stored).not.toBe(before.stored);
    expect(decryptSecret(readFileSync(keyFile), after.stored, aad)).toBe('DNS-CREDENTIALS');
  });

  it('finishes a rotation cut between the database switch and the key file swap', async () => {
    const { client } = await signedInClient(t);
    await createProxy(client);
    const repository = createSecretsRepository(t.database.db, OWNER_READS);
    const current = readFileSync(keyFile);
    const pending = newSecretKey();
    // What a crash after the transaction leaves: rows under `pending`, `.next` holding it.
    await repository.replaceSecrets(
      (await repository.listSecrets()).map((secret) => {
        const aad = storedSecretAad(secret);
        const plain = decryptSecret(current, secret.stored, aad);
        return { ...secret, previous: secret.stored, next: encryptSecret(pending, plain, aad) };
      }),
    );
    writeFileSync(`${keyFile}.next`, pending, { mode: 0o600 });
    const result = await rotateSecretKey(keyFile, repository);
    expect(result.resumed).toBe(true);
    expect(readFileSync(keyFile).equals(pending)).toBe(true);
    const rows = await stored();
    expect(rows).toHaveLength(1);
    for (const row of rows) expect(readsWith(pending, row)).toBeTruthy();
  });

  it('changes nothing when a stored value does not decrypt, and names it', async () => {
    const { client } = await signedInClient(t);
    const { id, input } = await createProxy(client);
    // The value under test is the proxy's own: the server its typed fields saved is left out.
    const [own] = await t.database.db
      .select({ serverId: proxyConfigurations.sshServerId })
      .from(proxyConfigurations)
      .where(eq(proxyConfigurations.id, id));
    await t.database.db
      .update(proxyConfigurations)
      .set({ sshServerId: null })
      .where(eq(proxyConfigurations.id, id));
    await t.database.db.delete(sshServers).where(eq(sshServers.id, own!.serverId!));
    const rows = await stored();
    const target = rows.find((r) => r.id === id)!;
    const flipped = Buffer.from(target.enc, 'base64');
    flipped[flipped.length - 1]! ^= 0x01;
    await t.database.db
      .update(proxyConfigurations)
      .set({ sshPasswordEnc: flipped.toString('base64') })
      .where(eq(proxyConfigurations.id, id));
    const keyBefore = readFileSync(keyFile);
    const storedBefore = await stored();

    const attempt = rotateSecretKey(keyFile, createSecretsRepository(t.database.db, OWNER_READS));
    await expect(attempt).rejects.toThrow(SecretRotationError);
    await expect(attempt).rejects.toThrow(input.domain);
    expect(readFileSync(keyFile).equals(keyBefore)).toBe(true);
    expect(existsSync(`${keyFile}.next`)).toBe(false);
    expect(await stored()).toEqual(storedBefore);
  });
});
