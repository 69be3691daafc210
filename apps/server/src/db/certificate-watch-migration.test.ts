// Migration 0006 (certificate watch) on a database an earlier release left at 0005 (saved SSH
// passwords bound to their server): it applies cleanly over existing rows, which read as before,
// and what it adds works at once: the certificate action runs, the certificate's status row,
// notification settings, the user's language (unset until a request says it).
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { databaseBeforeMigration } from '../../test/support/migrations-before';
import { testDatabaseKinds } from '../../test/support/test-database';
import { migrationsApplied, runMigrations } from './migrate';
import {
  certificateStatus,
  deployments,
  notificationSettings,
  proxyConfigurations,
  users,
} from './schema';

const USER = '00000000-0000-4000-8000-0000000000b1';
const PROXY = '00000000-0000-4000-8000-0000000000b2';

describe.each(testDatabaseKinds())('migration 0006 (certificate watch) on %s', (kind) => {
  const test = databaseBeforeMigration(kind, 6);

  it('applies over a database at 0005 and its rows read as before', async () => {
    const { db } = test.database;
    expect(await migrationsApplied(test.database)).toBe(false);
    await db.execute(sql`insert into users (id, username, email, password_hash)
      values (${USER}, 'before', 'before@example.com', 'x')`);
    await db.execute(sql`insert into proxy_configurations
      (id, user_id, domain, server_ip, email, status, ssl_configured, ssh_password_enc,
       ssh_password_target)
      values (${PROXY}, ${USER}, 'app.example.com', '198.51.100.1', 'ops@example.com',
       'completed', true, 'sealed', 'root@198.51.100.1:22')`);
    await db.execute(sql`insert into deployments (configuration_id, trigger, status)
      values (${PROXY}, 'deploy', 'completed')`);

    await runMigrations(test.database);
    expect(await migrationsApplied(test.database)).toBe(true);

    const [user] = await db.select().from(users).where(eq(users.id, USER));
    expect(user).toMatchObject({ username: 'before', language: null });
    const [proxy] = await db
      .select()
      .from(proxyConfigurations)
      .where(eq(proxyConfigurations.id, PROXY));
    expect(proxy).toMatchObject({
      status: 'completed',
      sshPasswordEnc: 'sealed',
      sshPasswordTarget: 'root@198.51.100.1:22',
    });
    // The new run kinds, one unfinished run per configuration, the new tables.
    await db
      .insert(deployments)
      .values({ configurationId: PROXY, trigger: 'renew', status: 'queued' });
    await expect(
      db
        .insert(deployments)
        .values({ configurationId: PROXY, trigger: 'renew_test', status: 'queued' }),
    ).rejects.toThrow();
    await db.insert(certificateStatus).values({ configurationId: PROXY });
    const [status] = await db.select().from(certificateStatus);
    expect(status!.alerted).toEqual({ expiry: 'fine', checkFailed: false, notReloaded: false });
    await db.insert(notificationSettings).values({ userId: USER });
    const [settings] = await db.select().from(notificationSettings);
    expect(settings).toMatchObject({ emailEnabled: true, webhookUrlEnc: null });
  });
});
