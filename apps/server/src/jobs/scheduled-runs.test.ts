// Periodic jobs run once per slot of their schedule across instances on one PostgreSQL: each
// instance (its own pool and pg-boss, as its own process would have) claims the slot, and only
// the one that moves it forward runs the work.
import { describe, expect, it } from 'vitest';
import { postgresWithSecondPool, testDatabaseKinds } from '../../test/support/test-database';
import { startQueue, type TQueue } from './queue';
import { createScheduledRunsRepository } from './scheduled-runs.repository';

const HOUR = 3_600_000;
const postgresOnly = testDatabaseKinds().filter((kind) => kind === 'postgres');

describe.each(postgresOnly)('scheduled runs on %s', () => {
  const shared = postgresWithSecondPool();

  /** The slot the database is in now, for a period. */
  async function slotNow(periodMs: number): Promise<number> {
    const { rows } = await shared.testDb.database.pool!.query<{ slot: string }>(
      'select floor(extract(epoch from now()) * 1000 / $1)::bigint as slot',
      [periodMs],
    );
    return Number(rows[0]!.slot);
  }

  it('of many claims for one slot from two instances, exactly one wins; the next slot is new', async () => {
    const a = createScheduledRunsRepository(shared.testDb.database.db);
    const b = createScheduledRunsRepository(shared.second.db);
    const before = await slotNow(HOUR);
    const wins = await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).claim('claims', HOUR)),
    );
    const after = await slotNow(HOUR);
    // One win per slot the claims ran in (two only if an hour began during them).
    expect(wins.filter(Boolean)).toHaveLength(after - before + 1);
    // A short period: once its slot has passed, the job is claimable again, once.
    expect(await a.claim('short', 20)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 25));
    expect(await Promise.all([a.claim('short', 20), b.claim('short', 20)])).toContain(true);
  });

  it('a recurring job handed to both instances in one slot is worked once', async () => {
    const queues: TQueue[] = [];
    try {
      queues.push(await startQueue(shared.testDb.database, () => {}));
      queues.push(await startQueue(shared.second, () => {}));
      const runs: string[] = [];
      const before = await slotNow(HOUR);
      // A cron that never fires during the test: the jobs are sent by hand below, one per
      // instance, as a schedule delivered twice would hand them over.
      for (const [i, queue] of queues.entries()) {
        await queue.recurring('count-test', '0 0 1 1 *', {
          expireInSeconds: 60,
          periodMs: HOUR,
          work: async () => void runs.push(`instance ${i}`),
        });
      }
      const states = async () =>
        (
          await shared.testDb.database.pool!.query<{ state: string }>(
            `select state from pgboss.job where name = 'count-test'`,
          )
        ).rows.map((r) => r.state);
      for (const queue of queues) {
        await queue.boss.send('count-test', {});
        await expect.poll(states, { timeout: 20_000 }).not.toContain('created');
        await expect.poll(states, { timeout: 20_000 }).not.toContain('active');
      }
      expect((await states()).filter((s) => s === 'completed')).toHaveLength(2);
      const after = await slotNow(HOUR);
      expect(runs).toHaveLength(after - before + 1);
    } finally {
      for (const queue of queues) await queue.stop();
    }
  });
});
