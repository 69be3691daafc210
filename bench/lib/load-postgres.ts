import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { openDatabase, type TDatabase } from '../../apps/server/src/db/client';

/** BENCH_DATABASE_URL or TEST_DATABASE_URL: a role that may CREATE DATABASE. */
export const benchDatabaseUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;

async function onAdmin<T>(work: (database: TDatabase) => Promise<T>): Promise<T> {
  const database = await openDatabase({ databaseUrl: benchDatabaseUrl, poolSize: 1 });
  try {
    return await work(database);
  } finally {
    await database.close();
  }
}

/** One line saying why the benchmark cannot run, or undefined when PostgreSQL answers. */
export async function postgresUnavailable(): Promise<string | undefined> {
  const hint = 'set TEST_DATABASE_URL (`source scripts/start-postgres.sh` starts one)';
  if (!benchDatabaseUrl) return `skipped: no PostgreSQL to run on; ${hint}`;
  try {
    await onAdmin((database) => database.ping());
    return undefined;
  } catch (error) {
    // drizzle wraps the driver's error; its cause says why (ECONNREFUSED, auth, no database).
    const why = ((error as Error).cause as Error | undefined)?.message ?? (error as Error).message;
    return `skipped: PostgreSQL is not reachable (${why}); ${hint}`;
  }
}

/** A fresh, empty database for one run (Portico migrates it on start), dropped afterwards. */
export async function scratchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `portico_bench_${randomBytes(4).toString('hex')}`;
  await onAdmin((database) => database.db.execute(sql.raw(`create database ${name}`)));
  const url = new URL(benchDatabaseUrl!);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () =>
      onAdmin((database) =>
        database.db.execute(sql.raw(`drop database if exists ${name} with (force)`)),
      ).then(() => undefined),
  };
}
