import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { authUserBenchmark } from './auth-user.bench';
import { postgresUnavailable, scratchDatabase } from './lib/load-postgres';
import type { TBenchmark } from './run';

// The same request on PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL: a role that may
// CREATE DATABASE). There sessions and users are read from the database on every request:
// several instances may share it, so nothing is cached in the process.
const unavailable = await postgresUnavailable();

export const benchmark: TBenchmark = unavailable
  ? { name: 'GET /api/auth/user on PostgreSQL', unavailable, run: async () => [] }
  : authUserBenchmark({
      label: 'PostgreSQL',
      async prepare() {
        const database = await scratchDatabase();
        const dataDir = mkdtempSync(join(tmpdir(), 'portico-bench-pg-'));
        return {
          env: { DATABASE_URL: database.url, PORTICO_DATA_DIR: dataDir },
          cleanup: async () => {
            rmSync(dataDir, { recursive: true, force: true });
            await database.drop();
          },
        };
      },
    });
