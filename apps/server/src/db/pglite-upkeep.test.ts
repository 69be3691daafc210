// PGlite has no autovacuum: upkeep analyzes a table whose rows changed enough and vacuums one
// whose dead rows piled up, with autovacuum's thresholds, and leaves the rest alone. The proof
// that matters: before it, the planner sorts a user's 2,000 proxies for a first page; after it,
// it walks the keyset index.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertManyProxies } from '../../test/support/many-proxies';
import { createTestDatabase, type TTestDatabase } from '../../test/support/test-database';
import { upkeep } from './pglite-upkeep';
import { proxyConfigurations, users } from './schema';

describe('PGlite upkeep', () => {
  let t: TTestDatabase;
  let userId: string;
  beforeAll(async () => {
    t = await createTestDatabase('pglite');
    const [user] = await t.database.db
      .insert(users)
      .values({ username: 'upkeep', email: 'upkeep@example.com', passwordHash: 'x' })
      .returning({ id: users.id });
    userId = user!.id;
    await insertManyProxies(t.database.db, userId, 2000, { prefix: 'upkeep' });
  });
  afterAll(async () => t?.drop());

  const stats = async () => {
    await t.database.db.execute(sql`select pg_stat_force_next_flush()`);
    const { rows } = (await t.database.db.execute(
      sql`select last_analyze, last_vacuum, n_dead_tup::int from pg_stat_user_tables where relname = 'proxy_configurations'`,
    )) as unknown as {
      rows: { last_analyze: string | null; last_vacuum: string | null; n_dead_tup: number }[];
    };
    return rows[0]!;
  };
  const firstPagePlan = async () => {
    const { rows } = (await t.database.db.execute(
      sql`explain select * from proxy_configurations where user_id = ${userId} order by created_at desc, id desc limit 51`,
    )) as unknown as { rows: Record<string, string>[] };
    return rows.map((row) => Object.values(row)[0]).join('\n');
  };

  it('analyzes a table that changed enough, and the first page then walks its index', async () => {
    expect((await stats()).last_analyze).toBeNull();
    expect(await firstPagePlan()).toMatch(/Sort/);
    const done = await upkeep(t.database);
    expect(done).toContain('public.proxy_configurations');
    expect((await stats()).last_analyze).not.toBeNull();
    expect(await firstPagePlan()).toMatch(/Index Scan Backward/);
    expect(await firstPagePlan()).not.toMatch(/Sort/);
    // Nothing changed since: nothing to do.
    await stats();
    expect(await upkeep(t.database)).not.toContain('public.proxy_configurations');
  });

  it('vacuums a table whose rows every update left dead', async () => {
    await t.database.db
      .update(proxyConfigurations)
      .set({ email: 'new-owner@example.com' })
      .where(eq(proxyConfigurations.userId, userId));
    expect((await stats()).n_dead_tup).toBeGreaterThanOrEqual(2000);
    expect(await upkeep(t.database)).toContain('public.proxy_configurations');
    const after = await stats();
    expect(after.last_vacuum).not.toBeNull();
    expect(after.n_dead_tup).toBe(0);
  });
});
