import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TConfig } from './config';
import { openDatabase, type TDatabase } from './db/client';
import { runMigrations } from './db/migrate';
import { acquireDataDirLock, type TDataDirLock } from './lib/data-dir-lock';

export interface TOpenedStore {
  database: TDatabase;
  lock: TDataDirLock | null;
  close(): Promise<void>;
}

/** Written by the build beside the bundle (dist/); absent when running from source. */
export const EMPTY_DUMP = fileURLToPath(new URL('./pgdata.tar.gz', import.meta.url));

/**
 * What the server and the CLI both do before touching data: take the data-dir lock (PGlite only:
 * PostgreSQL handles concurrent clients itself), open the database and apply migrations.
 */
export async function openStore(config: TConfig): Promise<TOpenedStore> {
  const lock = config.databaseUrl ? null : acquireDataDirLock(config.dataDir);
  try {
    const pgliteDir = join(config.dataDir, 'db');
    // Password hashes, session ids and ciphertexts live there: owner only, even inside a data
    // dir the operator made with a looser mode (PGlite itself creates 0755 directories).
    if (!config.databaseUrl) {
      mkdirSync(pgliteDir, { recursive: true, mode: 0o700 });
      chmodSync(pgliteDir, 0o700);
    }
    const database = await openDatabase({
      databaseUrl: config.databaseUrl,
      pgliteDir,
      pgliteEmptyDump: EMPTY_DUMP,
    });
    try {
      await runMigrations(database);
    } catch (error) {
      await database.close();
      throw error;
    }
    return {
      database,
      lock,
      close: async () => {
        try {
          await database.close();
        } finally {
          lock?.release();
        }
      },
    };
  } catch (error) {
    lock?.release();
    throw error;
  }
}
