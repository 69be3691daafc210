import { setTimeout as pause } from 'node:timers/promises';
import type { TDb } from './client';

/**
 * Runs `work` in one database transaction: every write made through the handle it is given
 * lands together or not at all (a throw rolls back). Services get it built over the
 * repositories they need (services.ts), so they never see drizzle. Nothing else may use the
 * database inside it on PGlite, whose one session the transaction holds until it ends: the
 * queue, for one, is used after it.
 */
export type TTransaction<TScope> = <T>(work: (scope: TScope) => Promise<T>) => Promise<T>;

/** Tries of a transaction PostgreSQL aborted to break a deadlock or a serialization conflict. */
export const TRANSACTION_TRIES = 4;

// PostgreSQL's deadlock_detected and serialization_failure: the transaction was rolled back
// whole and may simply run again (a redeploy and a create of the same account's rows can take
// their row locks in opposite orders; PGlite, with one session, never meets this).
const RETRYABLE = new Set(['40P01', '40001']);

function retryable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 4; depth += 1) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && RETRYABLE.has(code)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

export function transactionOver<TScope>(
  db: TDb,
  scopeOf: (tx: TDb) => TScope,
): TTransaction<TScope> {
  return async (work) => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await db.transaction((tx) => work(scopeOf(tx as unknown as TDb)));
      } catch (error) {
        if (attempt >= TRANSACTION_TRIES || !retryable(error)) throw error;
        // A short, jittered pause so the two sides do not meet again in step.
        await pause(10 * attempt + Math.floor(Math.random() * 20));
      }
    }
  };
}
