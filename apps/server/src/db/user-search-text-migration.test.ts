// Migration 0024 on a database an earlier release left at 0023: every account gets its
// search_text (name and e-mail, lower-cased), and accounts written after it get theirs too.
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { databaseBeforeMigration } from '../../test/support/migrations-before';
import { testDatabaseKinds } from '../../test/support/test-database';
import { migrationsApplied, runMigrations } from './migrate';
import { users } from './schema';

const USER = '00000000-0000-4000-8000-0000000000d1';

describe.each(testDatabaseKinds())('migration 0024 (users.search_text) on %s', (kind) => {
  const test = databaseBeforeMigration(kind, 24);

  it('fills the lower-cased name and e-mail of the accounts already there, and of new ones', async () => {
    const { db } = test.database;
    expect(await migrationsApplied(test.database)).toBe(false);
    await db.execute(sql`insert into users (id, username, email, password_hash)
      values (${USER}, 'Before_Upgrade', 'before@example.com', 'x')`);
    await runMigrations(test.database);
    expect(await migrationsApplied(test.database)).toBe(true);
    const [before] = await db
      .select({ searchText: users.searchText })
      .from(users)
      .where(eq(users.id, USER));
    expect(before?.searchText).toBe('before_upgrade\nbefore@example.com');
    const [after] = await db
      .insert(users)
      .values({ username: 'After_Upgrade', email: 'after@example.com', passwordHash: 'x' })
      .returning({ searchText: users.searchText });
    expect(after?.searchText).toBe('after_upgrade\nafter@example.com');
  });
});
