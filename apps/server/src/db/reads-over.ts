import type { TDb } from './client';

/**
 * What a repository asks of the modules that own other tables: each owner's reads as a factory
 * services.ts hands over, built over the repository's own handle (so a transaction's reads
 * share its transaction).
 */
export type TReadsOver<T> = { [K in keyof T]: (db: TDb) => T[K] };
