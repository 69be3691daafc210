import { join } from 'node:path';
import type { TConfig } from './config';
import { openDatabase, type TDatabase } from './db/client';
import { runMigrations } from './db/migrate';
import { acquireDataDirLock, type TDataDirLock } from './lib/data-dir-lock';

export interface TOpenedStore {
  database: TDatabase;
  lock: TDataDirLock | null;
  close(): Promise<void>;
}

/**
 * What the server and the CLI both do before touching data: take the data-dir lock (PGlite only:
 * PostgreSQL handles concurrent clients itself), open the database and apply migrations.
 */
export async function openStore(config: TConfig): Promise<TOpenedStore> {
  const lock = config.databaseUrl ? null : acquireDataDirLock(config.dataDir);
  try {
    const database = await openDatabase({
      databaseUrl: config.databaseUrl,
      pgliteDir: join(config.dataDir, 'db'),
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
