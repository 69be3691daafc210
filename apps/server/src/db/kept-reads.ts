import type { TWriteCount } from './write-count';

/** A read's value and the moment it stops being true though no row changes (null: never). */
export interface TTimedValue<T> {
  value: T;
  until: Date | null;
}

export interface TKeptReads<T> {
  /**
   * The value `compute` answers for `key` at `at`: the kept one while no write to the tables
   * has started or ended since it was read and `at` is within the moments it holds for, else
   * read again (and kept when no write started or ended while it was read).
   */
  read(key: string, at: Date, compute: () => Promise<TTimedValue<T>>): Promise<T>;
}

interface TKept<T> {
  version: number;
  from: number;
  until: number;
  value: T;
}

/**
 * Reads of `tables` kept in this process, for values that take a scan to make and are asked for
 * again and again unchanged (a list's counts on every page and every refetch). Only on PGlite:
 * the write count (db/write-count.ts) sees every write there is, as the kept answers do
 * (plugins/answer-cache.ts); a value read between two equal readings is still what the database
 * holds while the reading stays the same. Values are shared between callers: never change one.
 */
export function keptReads<T>(
  writes: TWriteCount,
  tables: readonly string[],
  maxEntries = 500,
): TKeptReads<T> {
  // A Map iterates in insertion order: re-inserting on every hit makes the first the least used.
  const kept = new Map<string, TKept<T>>();
  return {
    async read(key, at, compute) {
      const version = writes.current(tables);
      const t = at.getTime();
      const hit = kept.get(key);
      if (hit && hit.version === version && t >= hit.from && t < hit.until) {
        kept.delete(key);
        kept.set(key, hit);
        return hit.value;
      }
      const { value, until } = await compute();
      if (writes.current(tables) === version) {
        kept.delete(key);
        kept.set(key, { version, from: t, until: until?.getTime() ?? Infinity, value });
        for (const oldest of kept.keys()) {
          if (kept.size <= maxEntries) break;
          kept.delete(oldest);
        }
      }
      return value;
    },
  };
}
