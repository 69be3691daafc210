import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../apps/server/src/db/client';
import {
  KINDS,
  percentile,
  runMix,
  type TKind,
  type TMixResult,
} from '../apps/server/test/load/load-mix';
import { seedSessions, type TSeededSession } from '../apps/server/test/load/load-seed';
import { captureFloorData } from './lib/load-floor';
import { benchDatabaseUrl, postgresUnavailable, scratchDatabase } from './lib/load-postgres';
import { benchNodeArgs, cpuMs, startServer } from './lib/process';
import type { TBenchmark, TFigure } from './run';

/**
 * 200 signed-in users at once on PostgreSQL, each with its own session, connection and address,
 * doing what the web app does (home list, details, deployment log, edit-and-save) one request
 * after another for 60 s. Portico runs as a process of its own (src/main.ts through tsx, as the
 * other benchmarks); the load comes from this process. Floor: the same sessions and mix against
 * a bare Fastify process answering Portico's own answers from memory (load-floor-server.ts).
 */

const SHAPE = { sessions: 200, proxiesPerSession: 3, logLinesPerProxy: 30 };
const DURATION_MS = 60_000;
// LOAD_KIND=edit (or list, details, logs): every session sends only that kind, on Portico and
// on the floors alike, to see what one kind of request costs.
const LOAD_KIND = process.env.LOAD_KIND;
if (LOAD_KIND !== undefined && !(KINDS as readonly string[]).includes(LOAD_KIND)) {
  throw new Error(`LOAD_KIND must be one of ${KINDS.join(', ')}`);
}
const MIX = { durationMs: DURATION_MS, only: LOAD_KIND as TKind | undefined };

function describeRun(who: string, r: TMixResult) {
  const seconds = (r.elapsedMs / 1000).toFixed(1);
  console.info(`  ${who}: ${r.requests} requests in ${seconds} s; by kind: count, p50/p99 ms`);
  const ms = (l: number[], q: number) => percentile(l, q).toFixed(0);
  const kinds = KINDS.map((k) => {
    const { requests, latenciesMs: l } = r.byKind[k];
    return `${k} ${requests}, ${ms(l, 0.5)}/${ms(l, 0.99)}`;
  });
  console.info(`    ${kinds.join('; ')}`);
  for (const e of r.firstErrors) console.info(`    error: ${e}`);
}

async function onPortico(
  dataDir: string,
  floorFile: string,
): Promise<{ result: TMixResult; sessions: TSeededSession[]; cpuUs: number }> {
  const scratch = await scratchDatabase();
  const portico = await startServer(
    'apps/server/src/main.ts',
    { LOG_LEVEL: 'info', DATABASE_URL: scratch.url, PORTICO_DATA_DIR: dataDir },
    { nodeArgs: benchNodeArgs() },
  );
  // This process writes the seeded deployment logs through the same database.
  const database = await openDatabase({ databaseUrl: scratch.url, poolSize: 4 });
  let sessions: TSeededSession[] = [];
  try {
    const seeding = performance.now();
    sessions = await seedSessions(new URL(portico.url), database.db, SHAPE);
    const seconds = ((performance.now() - seeding) / 1000).toFixed(1);
    console.info(
      `  seeded ${SHAPE.sessions} users × ${SHAPE.proxiesPerSession} proxies × ${SHAPE.logLinesPerProxy} log lines in ${seconds} s`,
    );
    const cpuBefore = cpuMs(portico.child);
    const result = await runMix(sessions, MIX);
    const cpuUs = ((cpuMs(portico.child) - cpuBefore) * 1000) / result.requests;
    describeRun('Portico', result);
    await captureFloorData(sessions, floorFile);
    return { result, sessions, cpuUs };
  } finally {
    for (const s of sessions) s.client.close();
    await database.close();
    await portico.stop();
    await scratch.drop();
  }
}

async function onFloor(
  floorFile: string,
  sessions: TSeededSession[],
  databaseUrl?: string,
): Promise<{ result: TMixResult; cpuUs: number }> {
  const floor = await startServer('bench/load-floor-server.ts', {
    FLOOR_DATA: floorFile,
    ...(databaseUrl ? { FLOOR_DATABASE_URL: databaseUrl } : {}),
  });
  const pointed = sessions.map((s) => ({ ...s, client: s.client.pointedAt(new URL(floor.url)) }));
  // Each floor starts from the answers Portico left (the floor file), so the sessions' idea of
  // their proxies must start there too: what one floor's edits changed is put back after it.
  const asLeft = sessions.map((s) => s.proxies.map((p) => ({ ...p })));
  try {
    const cpuBefore = cpuMs(floor.child);
    const result = await runMix(pointed, MIX);
    describeRun(databaseUrl ? 'one-query floor' : 'floor', result);
    return { result, cpuUs: ((cpuMs(floor.child) - cpuBefore) * 1000) / result.requests };
  } finally {
    for (const s of pointed) s.client.close();
    for (const [i, s] of sessions.entries()) {
      for (const [j, p] of s.proxies.entries()) Object.assign(p, asLeft[i]![j]);
    }
    await floor.stop();
  }
}

const unavailable = await postgresUnavailable();

export const benchmark: TBenchmark = {
  name: `Load: ${SHAPE.sessions} signed-in sessions, ${LOAD_KIND ?? 'list/details/logs/edit'} for ${DURATION_MS / 1000} s (PostgreSQL)`,
  unavailable,
  async run(): Promise<TFigure[]> {
    // Portico, PostgreSQL, the floor and this load generator share the machine's cores.
    const busy = loadavg()[0]!.toFixed(1);
    console.info(`  ${availableParallelism()} cores, load average ${busy} before the run`);
    const dir = mkdtempSync(join(tmpdir(), 'portico-bench-load-'));
    try {
      const floorFile = join(dir, 'floor.json');
      const { result: app, sessions, cpuUs } = await onPortico(join(dir, 'data'), floorFile);
      const { result: floor, cpuUs: floorCpuUs } = await onFloor(floorFile, sessions);
      const { result: oneQuery } = await onFloor(floorFile, sessions, benchDatabaseUrl);
      const perSecond = (r: TMixResult) => r.requests / (r.elapsedMs / 1000);
      return [
        {
          label: 'requests/s',
          value: perSecond(app),
          floor: perSecond(floor),
          unit: '',
          goal: 'goal ≥ 40 %',
        },
        {
          label: 'requests/s',
          value: perSecond(app),
          floor: perSecond(oneQuery),
          unit: '',
          goal: 'beside one select 1 per request: what revocable-at-once sessions cost any server',
        },
        { label: 'errors', value: app.errors, floor: floor.errors, unit: '', goal: 'goal 0' },
        {
          label: 'latency p50',
          value: percentile(app.latenciesMs, 0.5),
          floor: percentile(floor.latenciesMs, 0.5),
          unit: ' ms',
        },
        {
          label: 'latency p99',
          value: percentile(app.latenciesMs, 0.99),
          floor: percentile(floor.latenciesMs, 0.99),
          unit: ' ms',
          goal: 'goal < 100 ms',
        },
        {
          label: 'latency p99',
          value: percentile(app.latenciesMs, 0.99),
          floor: percentile(oneQuery.latenciesMs, 0.99),
          unit: ' ms',
          goal: 'beside the one-query floor',
        },
        // Portico's process only: on PostgreSQL the database's own CPU comes on top.
        { label: 'CPU/request', value: cpuUs, floor: floorCpuUs, unit: ' µs' },
      ];
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
