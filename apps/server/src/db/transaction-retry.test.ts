// A transaction PostgreSQL aborts to break a deadlock is run again (db/transaction.ts): two
// transactions that lock the same two rows in opposite orders both land, on a real server. Seen
// in CI: a "redeploy all" run's deployment insert and the same account's proxy creation
// deadlocked, and the run recorded "server error" for that proxy. PGlite has one session and
// cannot deadlock, so its part is the error reading alone.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TTestDatabase } from '../../test/support/test-database';
import type { TDb } from './client';
import { TRANSACTION_TRIES, transactionOver } from './transaction';

describe('a transaction PostgreSQL aborted to break a deadlock', () => {
  it('is not retried for other errors, and gives up after its tries', async () => {
    let calls = 0;
    const db = {
      transaction: async () => {
        calls += 1;
        throw Object.assign(new Error('Failed query'), { cause: { code: '40P01' } });
      },
    } as unknown as TDb;
    await expect(transactionOver(db, (tx) => tx)(async () => 1)).rejects.toThrow('Failed query');
    expect(calls).toBe(TRANSACTION_TRIES);
    calls = 0;
    const refused = {
      transaction: async () => {
        calls += 1;
        throw Object.assign(new Error('duplicate'), { code: '23505' });
      },
    } as unknown as TDb;
    await expect(transactionOver(refused, (tx) => tx)(async () => 1)).rejects.toThrow('duplicate');
    expect(calls).toBe(1);
  });
});

describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('deadlocks on postgres', () => {
  let t: TTestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase('postgres');
    await t.database.db.execute(sql`create table lock_order (id int primary key, v int not null)`);
    await t.database.db.execute(sql`insert into lock_order values (1, 0), (2, 0)`);
  });
  afterAll(async () => t?.drop());

  it('runs the aborted side again, so both land', async () => {
    const transaction = transactionOver(t.database.db, (tx) => tx);
    let firstLocks = 0;
    let release: () => void = () => {};
    const bothLocked = new Promise<void>((resolve) => {
      release = resolve;
    });
    let tries = 0;
    const side = (first: number, second: number) =>
      transaction(async (tx) => {
        tries += 1;
        await tx.execute(sql`update lock_order set v = v + 1 where id = ${first}`);
        if (++firstLocks === 2) release();
        await bothLocked;
        await tx.execute(sql`update lock_order set v = v + 1 where id = ${second}`);
      });
    await Promise.all([side(1, 2), side(2, 1)]);
    // One side was aborted by the deadlock detector and ran a second time.
    expect(tries).toBe(3);
    const rows = await t.database.db.execute(sql`select v from lock_order order by id`);
    expect((rows as unknown as { rows: { v: number }[] }).rows.map((r) => r.v)).toEqual([2, 2]);
  });
});
