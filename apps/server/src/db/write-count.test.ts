import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countingWrites, isPlainRead } from './write-count';

describe('isPlainRead', () => {
  it('takes only a SELECT without a locking clause for a read', () => {
    expect(isPlainRead('select "id" from "users" where "id" = $1')).toBe(true);
    expect(isPlainRead('\n  SELECT 1')).toBe(true);
    for (const write of [
      'insert into "users" values ($1)',
      'update "users" set "role" = $1',
      'delete from "session"',
      'with moved as (update "jobs" set x = 1 returning *) select * from moved',
      'select * from "users" for update',
      'select * from "users" FOR NO KEY UPDATE skip locked',
      'select * from "users" for share',
      'begin',
      'create table t (id int)',
    ]) {
      expect(isPlainRead(write), write).toBe(false);
    }
  });
});

describe('countingWrites on PGlite', () => {
  let pglite: PGlite;
  beforeAll(async () => {
    pglite = await PGlite.create();
    await pglite.exec('create table t (id int)');
  });
  afterAll(async () => pglite.close());

  it('moves on for every write, before and after it, and never for a read', async () => {
    const { client, writes } = countingWrites(pglite);
    const start = writes.current();
    await client.query('select * from t');
    expect(writes.current()).toBe(start);
    let during = -1;
    const insert = client.query('insert into t values (1)');
    during = writes.current();
    await insert;
    expect(during).toBe(start + 1);
    expect(writes.current()).toBe(start + 2);
    await client.transaction(async (tx) => {
      await tx.query('select * from t');
    });
    expect(writes.current()).toBe(start + 4);
    await client.exec('select 1');
    expect(writes.current()).toBe(start + 6);
    // A failed write counts as one too: it may have changed something before it failed.
    await expect(client.query('insert into missing values (1)')).rejects.toThrow();
    expect(writes.current()).toBe(start + 8);
    // Everything else is the instance's own, working on it.
    expect(client.closed).toBe(false);
    expect((await client.query<{ n: number }>('select count(*)::int as n from t')).rows[0]?.n).toBe(
      1,
    );
  });
});
