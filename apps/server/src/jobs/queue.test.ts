import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type PgBoss from 'pg-boss';
import { describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../test/support/test-database';
import { pgliteBossDb, poolBossDb } from './queue';

// pg-boss writes a job's completion or failure without awaiting it, so a handler that ends after
// the queue stopped must not meet a rejection from the closed database (it would be unhandled).
async function openAdapter(
  kind: 'pglite' | 'postgres',
): Promise<{ db: PgBoss.Db; close(): Promise<void> }> {
  if (kind === 'pglite') {
    const pglite = new PGlite();
    return { db: pgliteBossDb(pglite), close: () => pglite.close() };
  }
  const pool = new pg.Pool({ connectionString: process.env.TEST_DATABASE_URL, max: 1 });
  return { db: poolBossDb(pool), close: () => pool.end() };
}

describe.each(testDatabaseKinds())('the queue database on %s', (kind) => {
  it('answers while open and answers nothing (what pg-boss reads as nothing affected), without rejecting, once closed', async () => {
    const adapter = await openAdapter(kind);
    await expect(adapter.db.executeSql('select 1 as one', [])).resolves.toEqual({
      rows: [{ one: 1 }],
    });
    await adapter.close();
    await expect(adapter.db.executeSql('select 1 as one', [])).resolves.toBeNull();
  });
});
