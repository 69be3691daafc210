import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../apps/server/src/db/client';
import { runMix } from '../apps/server/test/load/load-mix';
import { seedSessions } from '../apps/server/test/load/load-seed';
import { BUILT_MAIN, buildServer, FLOOR_JS } from './lib/built';
import { postgresUnavailable, scratchDatabase } from './lib/load-postgres';
import { cpuMs, rssMiB, startServer, type TServerProcess } from './lib/process';
import type { TBenchmark, TFigure } from './run';

/**
 * Resident memory of the built server (`npm start` runs the bundle on plain node), settled a
 * few seconds after /healthz first answers, beside a bare Fastify process on plain node. On
 * PGlite, the embedded default, for a new data dir and for an existing one; on PostgreSQL after
 * start and after the 200-session mix (the load benchmark's users, for LOAD_S seconds). Also the
 * CPU an idle instance uses (on an existing PGlite dir, and on PostgreSQL before the mix), in % of
 * one core over IDLE_CPU_MS, beside the bare process's: a small server's Portico should cost
 * nothing while nobody uses it.
 */
const SETTLE_MS = 5000;
const LOAD_S = 20;
const IDLE_FROM_MS = 10_000;
const IDLE_CPU_MS = 20_000;
const LOAD_SHAPE = { sessions: 200, proxiesPerSession: 3, logLinesPerProxy: 30 };

async function settledRss(server: TServerProcess): Promise<number> {
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  return rssMiB(server.child);
}

/**
 * % of one core the process uses over IDLE_CPU_MS, doing nothing asked of it, from IDLE_FROM_MS
 * after its memory settled: what is left of its start (a first look for interrupted runs, the
 * schedules, V8 compiling) is not what it costs while nobody uses it.
 */
async function idleCpu(server: TServerProcess): Promise<number> {
  await new Promise((r) => setTimeout(r, IDLE_FROM_MS));
  const before = cpuMs(server.child);
  await new Promise((r) => setTimeout(r, IDLE_CPU_MS));
  return ((cpuMs(server.child) - before) / IDLE_CPU_MS) * 100;
}

/** A started server's settled memory, then its idle CPU; the server is stopped after. */
async function settledThenIdle(server: TServerProcess): Promise<{ rss: number; cpu: number }> {
  try {
    const rss = await settledRss(server);
    return { rss, cpu: await idleCpu(server) };
  } finally {
    await server.stop();
  }
}

async function onPglite(): Promise<{ fresh: number; warm: number; idleCpu: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'portico-bench-memory-'));
  const env = { PORTICO_DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'info' };
  try {
    const first = await startServer(BUILT_MAIN, env);
    const fresh = await settledRss(first).finally(() => first.stop());
    const warm = await settledThenIdle(await startServer(BUILT_MAIN, env));
    return { fresh, warm: warm.rss, idleCpu: warm.cpu };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function onPostgres(): Promise<{ idle: number; idleCpu: number; loaded: number }> {
  const scratch = await scratchDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'portico-bench-memory-pg-'));
  const portico = await startServer(BUILT_MAIN, {
    DATABASE_URL: scratch.url,
    PORTICO_DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
  });
  const database = await openDatabase({ databaseUrl: scratch.url, poolSize: 4 });
  try {
    const idle = await settledRss(portico);
    const cpu = await idleCpu(portico);
    const sessions = await seedSessions(new URL(portico.url), database.db, LOAD_SHAPE);
    const result = await runMix(sessions, { durationMs: LOAD_S * 1000 });
    for (const s of sessions) s.client.close();
    console.info(`  the mix: ${result.requests} requests, ${result.errors} failed`);
    for (const e of result.firstErrors) console.info(`    error: ${e}`);
    const loaded = await settledRss(portico);
    return { idle, idleCpu: cpu, loaded };
  } finally {
    await database.close();
    await portico.stop();
    await scratch.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const noPostgres = await postgresUnavailable();

export const benchmark: TBenchmark = {
  name: `Memory: resident set (MiB) of the built server, ${SETTLE_MS / 1000} s after start, beside bare Fastify`,
  async run(): Promise<TFigure[]> {
    buildServer();
    const { rss: floor, cpu: floorIdleCpu } = await settledThenIdle(
      await startServer(FLOOR_JS, {}),
    );
    const pglite = await onPglite();
    const figures: TFigure[] = [
      { label: 'PGlite new dir', value: pglite.fresh, floor, unit: ' MiB', goal: 'goal ≤ 300 MiB' },
      { label: 'PGlite existing', value: pglite.warm, floor, unit: ' MiB', goal: 'goal ≤ 300 MiB' },
      {
        label: 'PGlite idle CPU',
        value: pglite.idleCpu,
        floor: floorIdleCpu,
        unit: ' %',
        goal: `of one core over ${IDLE_CPU_MS / 1000} s from ${(SETTLE_MS + IDLE_FROM_MS) / 1000} s after start; goal ≤ 1 %`,
      },
    ];
    if (noPostgres) {
      console.info(`  PostgreSQL ${noPostgres}`);
      return figures;
    }
    const postgres = await onPostgres();
    figures.push(
      {
        label: 'PostgreSQL idle',
        value: postgres.idle,
        floor,
        unit: ' MiB',
        goal: 'goal ≤ 120 MiB',
      },
      {
        label: 'PostgreSQL idle CPU',
        value: postgres.idleCpu,
        floor: floorIdleCpu,
        unit: ' %',
        goal: `of one core over ${IDLE_CPU_MS / 1000} s from ${(SETTLE_MS + IDLE_FROM_MS) / 1000} s after start; goal ≤ 1 %`,
      },
      {
        label: 'PostgreSQL loaded',
        value: postgres.loaded,
        floor,
        unit: ' MiB',
        goal: 'after the mix; goal ≤ 250 MiB',
      },
    );
    return figures;
  },
};
