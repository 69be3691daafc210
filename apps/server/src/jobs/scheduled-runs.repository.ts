import { sql } from 'drizzle-orm';
import type { TDb } from '../db/client';
import { scheduledRuns } from '../db/schema';

export type TScheduledRuns = ReturnType<typeof createScheduledRunsRepository>;

/**
 * Which instance runs a periodic job in each slot of its schedule: time (the database's clock,
 * so instances whose clocks differ agree) cut into `periodMs` slots from the epoch, which for a
 * minute or 6 hours lines up with the cron times. Several instances on one database all tick.
 */
export function createScheduledRunsRepository(db: TDb) {
  return {
    /**
     * True for the one caller that moves the job's slot forward to the current one: it runs the
     * job; every other caller in the same slot (another instance, a duplicate delivery) skips it.
     */
    async claim(name: string, periodMs: number): Promise<boolean> {
      const slot = sql`floor(extract(epoch from now()) * 1000 / ${periodMs})::bigint`;
      const rows = await db
        .insert(scheduledRuns)
        .values({ name, slot })
        .onConflictDoUpdate({
          target: scheduledRuns.name,
          set: { slot: sql`excluded.slot`, claimedAt: sql`now()` },
          setWhere: sql`${scheduledRuns.slot} < excluded.slot`,
        })
        .returning({ name: scheduledRuns.name });
      return rows.length === 1;
    },
  };
}
