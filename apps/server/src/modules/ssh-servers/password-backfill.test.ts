// The app's start moves the proxies' passwords to the servers migration 0014 made: a database
// the release before 0014 left, migrated, then the real app started on it (services.ready runs
// the backfill, so nobody re-enters a password after the upgrade).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseBeforeMigration } from '../../../test/support/migrations-before';
import { buildTestApp, TEST_APP_OPTIONS } from '../../../test/support/test-app';
import { testDatabaseKinds } from '../../../test/support/test-database';
import { runMigrations } from '../../db/migrate';
import { proxyConfigurations, sshServers } from '../../db/schema';
import { encryptSecret, loadOrCreateKey, secretAad, secretBoxLoader } from '../../lib/secrets';
import { createProxiesOnServers } from '../proxies/proxies-on-servers.repository';
import { createServerCredentials, serverTarget } from './server-credentials';
import { createSshServersRepository } from './ssh-servers.repository';

const OWNER = '00000000-0000-4000-8000-0000000003a1';
const PROXY = '00000000-0000-4000-8000-0000000003b1';

describe.each(testDatabaseKinds())('the start after migration 0014 on %s', (kind) => {
  const test = databaseBeforeMigration(kind, 14);
  const dir = mkdtempSync(join(tmpdir(), 'portico-backfill-'));
  const keyFile = join(dir, 'secret.key');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gives each new server its proxy’s password, sealed for the server', async () => {
    const { db } = test.database;
    const key = loadOrCreateKey(keyFile);
    const enc = encryptSecret(key, 'pw-before-0014', secretAad('proxy', PROXY, 'sshPassword'));
    await db.execute(sql`insert into users (id, username, email, password_hash)
      values (${OWNER}, 'olga', 'olga@example.com', 'x')`);
    await db.execute(sql`insert into proxy_configurations (id, user_id, domain, server_ip,
      ssh_port, ssh_user, ssh_password_enc, ssh_password_target, email) values (${PROXY},
      ${OWNER}, 'olga.example.com', '198.51.100.7', 22, 'root', ${enc},
      'root@198.51.100.7:22', 'ops@example.com')`);
    await runMigrations(test.database);
    const [proxy] = await db
      .select()
      .from(proxyConfigurations)
      .where(eq(proxyConfigurations.id, PROXY));
    const serverId = proxy!.sshServerId!;
    const server = async () =>
      (await db.select().from(sshServers).where(eq(sshServers.id, serverId)))[0]!;
    expect((await server()).passwordEnc).toBeNull();

    const app = await buildTestApp({
      ...TEST_APP_OPTIONS,
      database: test.database,
      config: { ...TEST_APP_OPTIONS.config, secretKeyFile: keyFile },
      deploy: { workers: 0 },
    });
    try {
      await app.ready();
    } finally {
      await app.close();
    }

    const moved = await server();
    expect(moved.passwordEnc).not.toBeNull();
    const credentials = createServerCredentials(
      secretBoxLoader(keyFile),
      createSshServersRepository(db, createProxiesOnServers).findById,
    );
    expect(credentials.credentialOf(null, moved, serverTarget(moved))).toEqual({
      auth: { password: 'pw-before-0014' },
    });
  });
});
