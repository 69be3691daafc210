import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { createPgliteDir, isNewPgliteDir, loadPglite, pgliteStartParams } from './pglite-dir';
import * as schema from './schema';
import { countingWrites, type TWriteCount } from './write-count';
import { yieldingQueries } from './yielding-queries';

export type TDb = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface TDatabase {
  db: TDb;
  kind: 'pglite' | 'postgres';
  /** The PGlite instance when embedded (tests dump it as a template). */
  pglite?: PGlite;
  /** The node-postgres pool when on PostgreSQL (migrations take an advisory lock on it). */
  pool?: pg.Pool;
  /**
   * On PGlite, the writes made through `db` (db/write-count.ts). Absent on PostgreSQL, where
   * other instances write too and a snapshot tells instead.
   */
  writes?: TWriteCount;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface TOpenDatabaseOptions {
  /** PostgreSQL connection string; when absent PGlite is used. */
  databaseUrl?: string;
  /** PGlite data directory (`<dataDir>/db`); `memory://` keeps it in memory. */
  pgliteDir?: string;
  /** A saved PGlite data dir (dumpDataDir) to start from; tests restore a migrated template. */
  pgliteTemplate?: Blob;
  poolSize?: number;
  /**
   * A dump of a new, empty data dir, made when the server is built: a new `pgliteDir` starts from
   * it in a fraction of a second. Without it (running from source) a child process runs initdb.
   */
  pgliteEmptyDump?: string;
}

export async function openDatabase(options: TOpenDatabaseOptions): Promise<TDatabase> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
    });
    // An idle client losing its connection must not crash the process; the next query reconnects.
    pool.on('error', () => {});
    const db = drizzlePg(pool, { schema }) as unknown as TDb;
    return {
      db,
      kind: 'postgres',
      pool,
      ping: async () => {
        await db.execute(sql`select 1`);
      },
      close: () => pool.end(),
    };
  }
  const dataDir = options.pgliteDir ?? 'memory://';
  if (!options.pgliteTemplate && !dataDir.includes('://') && isNewPgliteDir(dataDir)) {
    await createPgliteDir(dataDir, options.pgliteEmptyDump);
  }
  const [{ PGlite }, { drizzle: drizzlePglite }] = await Promise.all([
    loadPglite(),
    import('drizzle-orm/pglite'),
  ]);
  const pglite = await PGlite.create({
    dataDir,
    loadDataDir: options.pgliteTemplate,
    startParams: pgliteStartParams(PGlite),
  });
  // Drizzle's statements yield to waiting I/O, then are counted (write-count.ts), then run.
  const counting = countingWrites(pglite);
  const db = drizzlePglite(yieldingQueries(counting.client), { schema }) as unknown as TDb;
  return {
    db,
    kind: 'pglite',
    pglite,
    writes: counting.writes,
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: async () => {
      if (!pglite.closed) await pglite.close();
    },
  };
}

export type TPgClient = pg.Client;

/**
 * A connection of its own on PostgreSQL (LISTEN, session advisory locks), not yet connected;
 * `overrides` (deadlines, keepalive) apply to it alone.
 */
export function dedicatedClient(database: TDatabase, overrides: pg.ClientConfig = {}): TPgClient {
  return new pg.Client({ ...database.pool!.options, ...overrides });
}
