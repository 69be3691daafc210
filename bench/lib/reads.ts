import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon, { type TAutocannonResult } from 'autocannon';
import type { TDatabase } from '../../apps/server/src/db/client';
import type { LoadClient } from '../../apps/server/test/load/load-http';
import type { TBenchmark, TFigure } from '../run';
import { benchNodeArgs, cpuMs, startServer, type TServerProcess } from './process';
import { finishInDatabase, READS_SHAPE, seedReadsThroughApi, type TReadsWorld } from './reads-seed';

const CONNECTIONS = 50;
/**
 * Each server is loaded for DURATION_S in all, in SLICES turns taken in rotation with the other
 * servers of the same read: this machine's speed drifts over tens of seconds (it is shared), and
 * in turns Portico and its floors meet the same drift.
 */
const DURATION_S = 10;
const SLICES = 5;
/**
 * Before its turns each server answers the same requests unmeasured for this long: V8 compiles
 * a route's code during its first second or two under load (in Portico's profile, a fifth of
 * the CPU of those seconds went to the optimizing compiler, none later), and the figures are
 * of servers that have been running, as they are on a user's machine.
 */
const WARM_UP_S = 2;
const MAIN = 'apps/server/src/main.ts';

export interface TReadsTarget {
  label: string;
  /**
   * A database the floor may ask: a second floor then asks it once per request (see
   * reads-floor-server.ts), and each read is also printed beside that one.
   */
  floorDatabaseUrl?: string;
  /** Environment for Portico, a way in to its database while it is stopped, and cleanup. */
  prepare(): Promise<{
    env: NodeJS.ProcessEnv;
    open(): Promise<TDatabase>;
    cleanup(): Promise<void>;
  }>;
}

interface TRead {
  name: string;
  path: (w: TReadsWorld & { ownerId: string }) => string;
  as: (w: TReadsWorld) => LoadClient;
  what: string;
}

// In this order: the administrator's list comes last, once the owner's 100 proxies are gone, so
// that it holds exactly the 20 users × 10 proxies.
const READS: TRead[] = [
  {
    name: 'list',
    path: () => '/api/user/proxy-configurations',
    as: (w) => w.owner,
    what: `${READS_SHAPE.ownerProxies} proxies`,
  },
  {
    name: 'details',
    path: (w) => `/api/proxy-configurations/${w.ownerProxyIds[1]}`,
    as: (w) => w.owner,
    what: 'one proxy',
  },
  {
    name: 'logs',
    path: (w) => `/api/deployment-logs/${w.ownerProxyIds[0]}`,
    as: (w) => w.owner,
    what: `a ${READS_SHAPE.logLines}-line run`,
  },
  {
    name: 'current user',
    path: () => '/api/auth/user',
    as: (w) => w.owner,
    what: 'signed in',
  },
  {
    name: 'admin list',
    path: () => '/api/admin/all-proxies',
    as: (w) => w.admin,
    what: `${READS_SHAPE.adminUsers} users × ${READS_SHAPE.proxiesPerAdminUser} proxies`,
  },
];

/**
 * The reads to measure: all of them, or those named in BENCH_READS (comma-separated, e.g.
 * BENCH_READS="details,current user"), to compare one change on the reads it touches. A name
 * that is no read stops the bench before anything starts.
 */
function readsToRun(): TRead[] {
  const names = process.env.BENCH_READS?.split(',').map((name) => name.trim());
  if (!names) return READS;
  const unknown = names.filter((name) => !READS.some((read) => read.name === name));
  if (unknown.length > 0) {
    throw new Error(
      `BENCH_READS names no read: ${unknown.join(', ')} (the reads: ${READS.map((r) => r.name).join(', ')})`,
    );
  }
  return READS.filter((read) => names.includes(read.name));
}

interface TRun {
  /** Requests answered per second, over all its turns. */
  reqPerSec: number;
  /** The median of its turns' 99th percentiles (ms). */
  p99: number;
  /** CPU the server used per request, in µs. */
  cpuUs: number;
  errors: number;
}

async function loadTurn(
  server: TServerProcess,
  path: string,
  cookie: string | undefined,
  durationS = DURATION_S / SLICES,
) {
  const cpuBefore = cpuMs(server.child);
  const result: TAutocannonResult = await autocannon({
    url: `${server.url}${path}`,
    connections: CONNECTIONS,
    duration: durationS,
    headers: cookie ? { cookie } : {},
  });
  // A wrong answer stops the benchmark; a request that failed (autocannon gives up after 10 s)
  // is counted and reported.
  if (result.non2xx > 0) throw new Error(`${result.non2xx} non-2xx answers under load`);
  return { result, cpuMs: cpuMs(server.child) - cpuBefore };
}

/** `path` on each server in turn, SLICES times round, after a turn each to warm up. */
async function loadInTurns(
  servers: { server: TServerProcess; cookie?: string }[],
  path: string,
): Promise<TRun[]> {
  for (const { server, cookie } of servers) await loadTurn(server, path, cookie, WARM_UP_S);
  const turns = servers.map(() => ({ requests: 0, cpuMs: 0, errors: 0, p99s: [] as number[] }));
  for (let slice = 0; slice < SLICES; slice++) {
    for (const [i, { server, cookie }] of servers.entries()) {
      const { result, cpuMs: used } = await loadTurn(server, path, cookie);
      turns[i]!.requests += result.requests.total;
      turns[i]!.cpuMs += used;
      turns[i]!.errors += result.errors;
      turns[i]!.p99s.push(result.latency.p99);
    }
  }
  return turns.map((t) => ({
    reqPerSec: t.requests / DURATION_S,
    p99: t.p99s.sort((a, b) => a - b)[Math.floor(t.p99s.length / 2)]!,
    cpuUs: (t.cpuMs * 1000) / Math.max(1, t.requests),
    errors: t.errors,
  }));
}

const fmtPercent = (part: TRun, whole: TRun) =>
  `${((part.reqPerSec / whole.reqPerSec) * 100).toFixed(0)} %`;

/** A floor server (reads-floor-server.ts) answering `path` with `body`, as Portico did. */
async function startFloor(dir: string, path: string, body: string, env: NodeJS.ProcessEnv = {}) {
  const file = join(dir, 'bodies.json');
  writeFileSync(file, JSON.stringify({ [path]: body }));
  return startServer('bench/reads-floor-server.ts', { FLOOR_DATA: file, ...env });
}

/**
 * The API reads the screens make most, each under autocannon beside a bare Fastify process
 * serving the very bytes Portico answered (reads-floor-server.ts), in turns. Seeded through the
 * API; the administrator's role and the 500-line run are written in the database while Portico
 * is stopped (no SSH server here to deploy to), then Portico starts again and is measured.
 */
export function readsBenchmark(target: TReadsTarget): TBenchmark {
  return {
    name: `API reads (${CONNECTIONS} connections, ${DURATION_S} s each in ${SLICES} turns after ${WARM_UP_S} s to warm up, ${target.label})`,
    async run(): Promise<TFigure[]> {
      const reads = readsToRun();
      const prepared = await target.prepare();
      const figures: TFigure[] = [];
      const failed: TFigure = { label: 'failed requests', value: 0, floor: 0, unit: '' };
      const floorDir = mkdtempSync(join(tmpdir(), 'portico-bench-reads-floor-'));
      try {
        let portico = await startServer(MAIN, { LOG_LEVEL: 'info', ...prepared.env });
        let world: Awaited<ReturnType<typeof seedReadsThroughApi>>;
        try {
          world = await seedReadsThroughApi(new URL(portico.url));
        } finally {
          await portico.stop();
        }
        const database = await prepared.open();
        try {
          await finishInDatabase(database, world);
        } finally {
          await database.close();
        }
        portico = await startServer(
          MAIN,
          { LOG_LEVEL: 'info', ...prepared.env },
          { nodeArgs: benchNodeArgs() },
        );
        // The second start listens on another port: the same browsers, pointed at it.
        const base = new URL(portico.url);
        const seeded = world;
        world = {
          ...seeded,
          owner: seeded.owner.pointedAt(base),
          admin: seeded.admin.pointedAt(base),
        };
        seeded.owner.close();
        seeded.admin.close();
        try {
          for (const read of reads) {
            if (read.name === 'admin list') {
              for (const id of world.ownerProxyIds) {
                const r = await world.owner.write(
                  'DELETE',
                  `/api/proxy-configurations/${id}?removeFromServer=false`,
                );
                if (r.status !== 200) throw new Error(`deleting a proxy answered ${r.status}`);
              }
            }
            const path = read.path(world);
            const cookie = read.as(world).cookieHeader();
            const answer = await fetch(`${portico.url}${path}`, { headers: { cookie } });
            const body = await answer.text();
            if (answer.status !== 200) throw new Error(`GET ${path} answered ${answer.status}`);
            const kB = (Buffer.byteLength(body) / 1000).toFixed(1);
            console.info(
              `  ${read.name}: GET ${path.replace(/[0-9a-f-]{36}/, ':id')}, ${read.what}, ${kB} kB`,
            );
            const floor = await startFloor(floorDir, path, body);
            // The same floor twice: how far apart two identical servers measure in this run's
            // turns, so that a figure near its goal can be read for what it is.
            const twin = await startFloor(floorDir, path, body);
            const oneQueryFloor = target.floorDatabaseUrl
              ? await startFloor(floorDir, path, body, {
                  FLOOR_DATABASE_URL: target.floorDatabaseUrl,
                })
              : undefined;
            let runs: TRun[];
            try {
              runs = await loadInTurns(
                [
                  { server: portico, cookie },
                  { server: floor },
                  { server: twin },
                  ...(oneQueryFloor ? [{ server: oneQueryFloor }] : []),
                ],
                path,
              );
            } finally {
              await floor.stop();
              await twin.stop();
              await oneQueryFloor?.stop();
            }
            const [mine, bare, same, withQuery] = runs as [TRun, TRun, TRun, TRun | undefined];
            figures.push(
              {
                label: `${read.name} req/s`,
                value: mine.reqPerSec,
                floor: bare.reqPerSec,
                unit: '',
                goal: 'goal ≥ 50 %',
              },
              {
                label: `${read.name} p99`,
                value: mine.p99,
                floor: bare.p99,
                unit: ' ms',
                goal: 'goal ≤ 300 %',
              },
              { label: `${read.name} CPU/req`, value: mine.cpuUs, floor: bare.cpuUs, unit: ' µs' },
              {
                label: `${read.name} twin`,
                value: same.reqPerSec,
                floor: bare.reqPerSec,
                unit: '',
                goal: 'the floor again: how far a figure strays by chance in this run',
              },
            );
            if (withQuery) {
              figures.push({
                label: `${read.name} req/s`,
                value: mine.reqPerSec,
                floor: withQuery.reqPerSec,
                unit: '',
                goal: `floor asking the database once: ${fmtPercent(withQuery, bare)} of the bare floor`,
              });
            }
            failed.value += mine.errors;
            failed.floor += bare.errors + same.errors + (withQuery?.errors ?? 0);
          }
        } finally {
          world.owner.close();
          world.admin.close();
          await portico.stop();
        }
      } finally {
        rmSync(floorDir, { recursive: true, force: true });
        await prepared.cleanup();
      }
      return [...figures, failed];
    },
  };
}
