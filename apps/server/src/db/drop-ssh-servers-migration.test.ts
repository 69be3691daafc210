// Migration 0008 on a database an earlier release left at 0007: the never-used ssh_servers table
// and proxy_configurations.ssh_server_id go; every proxy row reads as before.
import { rmSync } from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { databaseBeforeMigration, migrationsBefore } from '../../test/support/migrations-before';
import { testDatabaseKinds } from '../../test/support/test-database';
import { migrationsApplied, runMigrations } from './migrate';
import { proxyConfigurations } from './schema';

const USER = '00000000-0000-4000-8000-0000000000c1';
const PROXY = '00000000-0000-4000-8000-0000000000c2';

describe.each(testDatabaseKinds())('migration 0008 (unused ssh_servers dropped) on %s', (kind) => {
  const test = databaseBeforeMigration(kind, 8);

  async function columnsOf(table: string): Promise<string[]> {
    const result = (await test.database.db.execute(
      sql`select column_name from information_schema.columns where table_name = ${table}`,
    )) as unknown as { rows: { column_name: string }[] };
    return result.rows.map((row) => row.column_name);
  }

  it('drops the table and the column; proxies read as before', async () => {
    const { db } = test.database;
    expect(await migrationsApplied(test.database)).toBe(false);
    expect(await columnsOf('ssh_servers')).toContain('password_enc');
    expect(await columnsOf('proxy_configurations')).toContain('ssh_server_id');
    await db.execute(sql`insert into users (id, username, email, password_hash)
      values (${USER}, 'before', 'before@example.com', 'x')`);
    await db.execute(sql`insert into proxy_configurations
      (id, user_id, domain, server_ip, email, status, ssl_configured)
      values (${PROXY}, ${USER}, 'app.example.com', '198.51.100.1', 'ops@example.com',
       'completed', true)`);

    // Up to 0008 only: 0014 brings saved servers back, used this time (its own test).
    const upTo0008 = migrationsBefore(9);
    try {
      await runMigrations(test.database, upTo0008);
    } finally {
      rmSync(upTo0008, { recursive: true, force: true });
    }
    expect(await columnsOf('ssh_servers')).toEqual([]);
    expect(await columnsOf('proxy_configurations')).not.toContain('ssh_server_id');
    await runMigrations(test.database);
    expect(await migrationsApplied(test.database)).toBe(true);
    const [proxy] = await db
      .select()
      .from(proxyConfigurations)
      .where(eq(proxyConfigurations.id, PROXY));
    expect(proxy).toMatchObject({ domain: 'app.example.com', status: 'completed' });
  });
});
