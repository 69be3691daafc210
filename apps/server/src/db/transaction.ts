import type { TDb } from './client';

/**
 * Runs `work` in one database transaction: every write made through the handle it is given
 * lands together or not at all (a throw rolls back). Services get it built over the
 * repositories they need (services.ts), so they never see drizzle. Nothing else may use the
 * database inside it on PGlite, whose one session the transaction holds until it ends: the
 * queue, for one, is used after it.
 */
export type TTransaction<TScope> = <T>(work: (scope: TScope) => Promise<T>) => Promise<T>;

export function transactionOver<TScope>(
  db: TDb,
  scopeOf: (tx: TDb) => TScope,
): TTransaction<TScope> {
  return (work) => db.transaction((tx) => work(scopeOf(tx as unknown as TDb)));
}
