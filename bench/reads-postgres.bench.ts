import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../apps/server/src/db/client';
import { benchDatabaseUrl, postgresUnavailable, scratchDatabase } from './lib/load-postgres';
import { readsBenchmark } from './lib/reads';
import type { TBenchmark } from './run';

// The same reads on PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL: a role that may
// CREATE DATABASE), in a scratch database dropped afterwards.
const unavailable = await postgresUnavailable();

export const benchmark: TBenchmark = unavailable
  ? { name: 'API reads on PostgreSQL', unavailable, run: async () => [] }
  : readsBenchmark({
      label: 'PostgreSQL',
      floorDatabaseUrl: benchDatabaseUrl,
      async prepare() {
        const database = await scratchDatabase();
        const dataDir = mkdtempSync(join(tmpdir(), 'portico-bench-reads-pg-'));
        return {
          env: { DATABASE_URL: database.url, PORTICO_DATA_DIR: dataDir },
          open: () => openDatabase({ databaseUrl: database.url, poolSize: 2 }),
          cleanup: async () => {
            rmSync(dataDir, { recursive: true, force: true });
            await database.drop();
          },
        };
      },
    });
