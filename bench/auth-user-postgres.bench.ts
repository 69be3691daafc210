import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { authUserBenchmark } from './auth-user.bench';
import type { TBenchmark } from './run';

// The same request on PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL: a role that may
// CREATE DATABASE). There sessions and users are read from the database on every request:
// several instances may share it, so nothing is cached in the process.
const adminUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;

async function admin(sql: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export const benchmark: TBenchmark = adminUrl
  ? authUserBenchmark({
      label: 'PostgreSQL',
      async prepare() {
        const name = `portico_bench_${randomBytes(4).toString('hex')}`;
        await admin(`create database ${name}`);
        const url = new URL(adminUrl);
        url.pathname = `/${name}`;
        const dataDir = mkdtempSync(join(tmpdir(), 'portico-bench-pg-'));
        return {
          env: { DATABASE_URL: url.toString(), PORTICO_DATA_DIR: dataDir },
          cleanup: async () => {
            rmSync(dataDir, { recursive: true, force: true });
            await admin(`drop database if exists ${name} with (force)`);
          },
        };
      },
    })
  : {
      name: 'GET /api/auth/user on PostgreSQL',
      unavailable: 'skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL to run it',
      run: async () => [],
    };
