import type { TRateLimitHitsRepository } from './rate-limit-hits.repository';

/** How often one instance forgets counters whose window ended (lazily, on a hit). */
const SWEEP_EVERY_MS = 10 * 60_000;

type TIncrCallback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * A store for @fastify/rate-limit that counts in the shared database: the limiter (its rules,
 * keys and answers) stays the same on PGlite, where its own in-memory store counts. Every limit
 * shares this one store; keys are already distinct per limit (plugins/rate-limit.ts).
 */
export function databaseRateLimitStore(
  hits: TRateLimitHitsRepository,
  onError: (e: unknown) => void,
) {
  let lastSweep = Date.now();
  return class DatabaseRateLimitStore {
    // The limiter passes the limit's window (ms) as the third argument; its types leave it out.
    incr(key: string, callback: TIncrCallback, timeWindow?: number) {
      if (typeof timeWindow !== 'number') {
        callback(new Error('rate limit counted without its window'));
        return;
      }
      hits.hit(key, timeWindow).then(
        ({ count, ttlMs }) => callback(null, { current: count, ttl: ttlMs }),
        (error: Error) => callback(error),
      );
      if (Date.now() - lastSweep > SWEEP_EVERY_MS) {
        lastSweep = Date.now();
        hits.sweep().catch(onError);
      }
    }

    child() {
      return this;
    }
  };
}
