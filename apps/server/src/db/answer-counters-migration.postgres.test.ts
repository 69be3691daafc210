// Migration 0010 (the answer counters) on a PostgreSQL database an earlier release left at 0009:
// an account's row keeps its `version` and starts both new counters at 0, and from then on
// each kind of change moves what plugins/answer-cache.ts reads for it (and `version`, which an
// instance from before 0010 still reads alone). PGlite starts with these triggers off
// (db/pglite-dir.ts), so like every PostgreSQL suite here it has no cases without
// TEST_DATABASE_URL.
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { databaseBeforeMigration } from '../../test/support/migrations-before';
import { testDatabaseKinds } from '../../test/support/test-database';
import { migrationsApplied, runMigrations } from './migrate';
import { answerVersions, deploymentLogs, proxyConfigurations } from './schema';

const OWNER = '00000000-0000-4000-8000-0000000000c1';
const OTHER = '00000000-0000-4000-8000-0000000000c2';
const PROXY = '00000000-0000-4000-8000-0000000000c3';

const postgresOnly = testDatabaseKinds().filter((kind) => kind === 'postgres');

describe.each(postgresOnly)('migration 0010 (answer counters) on %s', (kind) => {
  const test = databaseBeforeMigration(kind, 10);

  it('keeps the version an earlier release counted, and each change moves its own counter', async () => {
    const { db } = test.database;
    expect(await migrationsApplied(test.database)).toBe(false);
    for (const [id, name] of [
      [OWNER, 'owner'],
      [OTHER, 'other'],
    ]) {
      await db.execute(sql`insert into users (id, username, email, password_hash)
        values (${id}, ${name}, ${`${name}@example.com`}, 'x')`);
    }
    await db.execute(sql`insert into proxy_configurations
      (id, user_id, domain, server_ip, email, status)
      values (${PROXY}, ${OWNER}, 'counted.example.com', '198.51.100.1', 'ops@example.com',
       'completed')`);
    // The table as 0009 made it, read through the pool (drizzle's schema has the new columns).
    const before = await test.database.pool!.query(
      'select * from answer_versions where user_id = $1',
      [OWNER],
    );
    expect(before.rows).toEqual([{ user_id: OWNER, version: '1' }]);

    await runMigrations(test.database);
    expect(await migrationsApplied(test.database)).toBe(true);
    const read = async (userId: string) =>
      (await db.select().from(answerVersions).where(eq(answerVersions.userId, userId)))[0];
    expect(await read(OWNER)).toEqual({
      userId: OWNER,
      version: 1,
      proxiesVersion: 0,
      logsVersion: 0,
    });

    // An edit: the configurations' counter, not the logs'.
    await db
      .update(proxyConfigurations)
      .set({ targetServer: 'http://10.0.0.2:8080' })
      .where(eq(proxyConfigurations.id, PROXY));
    expect(await read(OWNER)).toMatchObject({ version: 2, proxiesVersion: 1, logsVersion: 0 });
    // A log line: the logs' counter, not the configurations'.
    await db
      .insert(deploymentLogs)
      .values({ configurationId: PROXY, level: 'info', message: 'line', text: 'line' });
    expect(await read(OWNER)).toMatchObject({ version: 3, proxiesVersion: 1, logsVersion: 1 });
    // Given to another account: both of the old owner's, and the new owner's configurations.
    await db
      .update(proxyConfigurations)
      .set({ userId: OTHER })
      .where(eq(proxyConfigurations.id, PROXY));
    expect(await read(OWNER)).toMatchObject({ version: 4, proxiesVersion: 2, logsVersion: 2 });
    expect(await read(OTHER)).toMatchObject({ version: 1, proxiesVersion: 1, logsVersion: 0 });
    // Deleted (its lines go with it): all of the owner's.
    await db.delete(proxyConfigurations).where(eq(proxyConfigurations.id, PROXY));
    expect(await read(OTHER)).toMatchObject({ version: 2, proxiesVersion: 2, logsVersion: 1 });
  });
});
