import { lt, sql } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { rateLimitHits } from '../../db/schema';

export type TRateLimitHitsRepository = ReturnType<typeof createRateLimitHitsRepository>;

/** Rate-limit counters in the shared database, so every instance counts the same attempts. */
export function createRateLimitHitsRepository(db: TDb) {
  return {
    /**
     * Counts one hit on `key` and answers the count in its window and the milliseconds left in
     * it. One statement: two instances counting the same key at once both land (row lock), and
     * a window that has ended starts again at 1, as the in-memory store does.
     */
    async hit(key: string, windowMs: number): Promise<{ count: number; ttlMs: number }> {
      const ended = sql`${rateLimitHits.windowEnds} <= now()`;
      const [row] = await db
        .insert(rateLimitHits)
        .values({ key, hits: 1, windowEnds: sql`now() + ${windowMs} * interval '1 millisecond'` })
        .onConflictDoUpdate({
          target: rateLimitHits.key,
          set: {
            hits: sql`case when ${ended} then 1 else ${rateLimitHits.hits} + 1 end`,
            windowEnds: sql`case when ${ended} then excluded.window_ends else ${rateLimitHits.windowEnds} end`,
          },
        })
        .returning({
          count: rateLimitHits.hits,
          ttlMs: sql<number>`greatest(0, ceil(extract(epoch from ${rateLimitHits.windowEnds} - now()) * 1000))::int`,
        });
      return { count: row!.count, ttlMs: Number(row!.ttlMs) };
    },

    /** Forgets counters whose window has ended (they would start again at 1 anyway). */
    async sweep(): Promise<void> {
      await db.delete(rateLimitHits).where(lt(rateLimitHits.windowEnds, sql`now()`));
    },
  };
}
