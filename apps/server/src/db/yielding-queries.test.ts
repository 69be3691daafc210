import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { yieldingQueries } from './yielding-queries';

describe('yieldingQueries on PGlite', () => {
  let pglite: PGlite;
  beforeAll(async () => {
    pglite = await PGlite.create();
  });
  afterAll(async () => pglite?.close());

  /** The order in which I/O that was already waiting and a statement queued behind it ran. */
  async function orderOf(client: PGlite): Promise<string[]> {
    const order: string[] = [];
    setImmediate(() => order.push('waiting I/O'));
    await client.query('select 1').then(() => order.push('statement'));
    await new Promise<void>((resolve) => setImmediate(resolve));
    return order;
  }

  it('lets what is waiting on the event loop run before each statement', async () => {
    // On the instance itself, the statement runs first: that is what the wrapper is for.
    expect(await orderOf(pglite)).toEqual(['statement', 'waiting I/O']);
    expect(await orderOf(yieldingQueries(pglite))).toEqual(['waiting I/O', 'statement']);
  });

  it('answers as the instance does, and leaves its other members working', async () => {
    const client = yieldingQueries(pglite);
    expect((await client.query<{ n: number }>('select 41 + 1 as n')).rows).toEqual([{ n: 42 }]);
    await client.exec('create table t (n int); insert into t values (7)');
    const rows = await client.transaction(async (tx) => (await tx.query('select n from t')).rows);
    expect(rows).toEqual([{ n: 7 }]);
    expect(client.closed).toBe(false);
  });
});
