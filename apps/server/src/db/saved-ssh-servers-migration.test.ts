// Migration 0014 on a database the previous release left at 0013: every proxy gets a saved
// server, one per (owner, host, port, user), keeping its pinned host key; at start-up each server
// gets its proxies' password (bound to the proxy row, so SQL cannot move it). Nobody re-enters
// anything.
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseBeforeMigration } from '../../test/support/migrations-before';
import { removeTestTempDir, testTempDir } from '../../test/support/temp-dir';
import { testDatabaseKinds } from '../../test/support/test-database';
import {
  decryptSecret,
  encryptSecret,
  loadOrCreateKey,
  secretAad,
  secretBoxLoader,
} from '../lib/secrets';
import { createProxiesOnServers } from '../modules/proxies/proxies-on-servers.repository';
import { moveProxyPasswordsToServers } from '../modules/ssh-servers/password-backfill';
import {
  createServerCredentials,
  serverSecretAad,
} from '../modules/ssh-servers/server-credentials';
import { createSshServersRepository } from '../modules/ssh-servers/ssh-servers.repository';
import { migrationsApplied, runMigrations } from './migrate';
import { proxyConfigurations, sshServers } from './schema';

const ANA = '00000000-0000-4000-8000-0000000001a1';
const BEN = '00000000-0000-4000-8000-0000000001b1';
const id = (n: number) => `00000000-0000-4000-8000-0000000002${String(n).padStart(2, '0')}`;

describe.each(testDatabaseKinds())('migration 0014 (saved SSH servers) on %s', (kind) => {
  const test = databaseBeforeMigration(kind, 14);
  const keyDir = testTempDir('portico-servers-');
  afterAll(() => removeTestTempDir(keyDir));
  const keyFile = join(keyDir, 'secret.key');

  it('groups proxies into servers by owner, host, port and user; pins and passwords carried over', async () => {
    const { db } = test.database;
    expect(await migrationsApplied(test.database)).toBe(false);
    const key = loadOrCreateKey(keyFile);
    await db.execute(sql`insert into users (id, username, email, password_hash) values
      (${ANA}, 'ana', 'ana@example.com', 'x'), (${BEN}, 'ben', 'ben@example.com', 'x')`);
    // [proxy, owner, host, port, user, password, pin, minutes ago]
    const proxies: [
      number,
      string,
      string,
      number,
      string,
      string | null,
      string | null,
      number,
    ][] = [
      [1, ANA, '198.51.100.1', 22, 'root', 'pw-old', null, 30],
      [2, ANA, '198.51.100.1', 22, 'root', 'pw-new', 'SHA256:pinned', 10],
      [3, ANA, '198.51.100.1', 2222, 'root', 'pw-port', null, 5],
      [4, ANA, '198.51.100.1', 22, 'deploy', null, 'SHA256:deploy', 5],
      [5, BEN, '198.51.100.1', 22, 'root', 'pw-ben', null, 5],
    ];
    for (const [n, owner, host, port, user, password, pin, ago] of proxies) {
      const enc = password
        ? encryptSecret(key, password, secretAad('proxy', id(n), 'sshPassword'))
        : null;
      const target = password ? `${user}@${host}:${port}` : null;
      await db.execute(sql`insert into proxy_configurations (id, user_id, domain, server_ip,
        ssh_port, ssh_user, ssh_password_enc, ssh_password_target, host_key_fingerprint, email,
        updated_at) values (${id(n)}, ${owner}, ${`app${n}.example.com`}, ${host}, ${port},
        ${user}, ${enc}, ${target}, ${pin}, 'ops@example.com',
        now() - ${`${ago} minutes`}::interval)`);
    }

    await runMigrations(test.database);
    expect(await migrationsApplied(test.database)).toBe(true);

    const servers = await db.select().from(sshServers);
    expect(servers).toHaveLength(4);
    const rows = await db.select().from(proxyConfigurations);
    const serverOf = (n: number) => rows.find((r) => r.id === id(n))!.sshServerId;
    expect(serverOf(1)).toBe(serverOf(2));
    expect(new Set([2, 3, 4, 5].map(serverOf)).size).toBe(4);
    const shared = servers.find((s) => s.id === serverOf(1))!;
    expect(shared).toMatchObject({
      userId: ANA,
      name: 'root@198.51.100.1',
      host: '198.51.100.1',
      port: 22,
      username: 'root',
      authKind: 'password',
      hostKeyFingerprint: 'SHA256:pinned',
      passwordEnc: null,
    });
    expect(servers.find((s) => s.id === serverOf(3))!.name).toBe('root@198.51.100.1:2222');
    expect(servers.find((s) => s.id === serverOf(4))!.hostKeyFingerprint).toBe('SHA256:deploy');
    expect(servers.find((s) => s.id === serverOf(5))!.userId).toBe(BEN);

    // Start-up: the passwords follow, each sealed for its server and target.
    const repository = createSshServersRepository(db, createProxiesOnServers);
    const credentials = createServerCredentials(secretBoxLoader(keyFile), repository.findById);
    expect(await moveProxyPasswordsToServers(repository, credentials)).toEqual({
      moved: 3,
      failed: 0,
    });
    expect(await moveProxyPasswordsToServers(repository, credentials)).toEqual({
      moved: 0,
      failed: 0,
    });
    const [after] = await db.select().from(sshServers).where(eq(sshServers.id, shared.id));
    const target = { serverIp: '198.51.100.1', sshPort: 22, sshUser: 'root' };
    // The newest proxy's password is the server's.
    expect(after!.passwordEnc).not.toBeNull();
    const withoutOwn = {
      id: id(2),
      sshPasswordEnc: null,
      sshPasswordTarget: null,
      sshServerId: shared.id,
    };
    expect(await credentials.credentialFor(withoutOwn, target)).toEqual({
      auth: { password: 'pw-new' },
    });
    // Bound to the target inside the ciphertext: read for another one, it does not decrypt.
    expect(
      decryptSecret(key, after!.passwordEnc!, serverSecretAad(shared.id, 'password', target)),
    ).toBe('pw-new');
    const moved = { ...target, sshUser: 'deploy' };
    expect(() =>
      decryptSecret(key, after!.passwordEnc!, serverSecretAad(shared.id, 'password', moved)),
    ).toThrow();
    const elsewhere = { ...target, serverIp: '198.51.100.9' };
    expect(await credentials.credentialFor(withoutOwn, elsewhere)).toEqual({
      refused: { reason: 'no_credential', target: 'root@198.51.100.9:22', savedElsewhere: true },
    });
    // A server whose proxies had no password stays without one.
    const [deploy] = await db
      .select()
      .from(sshServers)
      .where(eq(sshServers.id, serverOf(4)!));
    expect(deploy!.passwordEnc).toBeNull();
  });
});
