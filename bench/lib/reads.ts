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
const DURATION_S = 10;
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

interface TRun {
  result: TAutocannonResult;
  /** CPU the server used per request, in µs: unlike req/s, it holds on a machine shared with other work. */
  cpuUs: number;
}

async function load(server: TServerProcess, path: string, cookie?: string): Promise<TRun> {
  const cpuBefore = cpuMs(server.child);
  const result = await autocannon({
    url: `${server.url}${path}`,
    connections: CONNECTIONS,
    duration: DURATION_S,
    headers: cookie ? { cookie } : {},
  });
  // A wrong answer stops the benchmark; a request that failed (autocannon gives up after 10 s)
  // is counted and reported.
  if (result.non2xx > 0) throw new Error(`${result.non2xx} non-2xx answers under load`);
  return { result, cpuUs: ((cpuMs(server.child) - cpuBefore) * 1000) / result.requests.total };
}

const fmtPercent = (part: TRun, whole: TRun) =>
  `${((part.result.requests.average / whole.result.requests.average) * 100).toFixed(0)} %`;

/** Each read's path under load on a floor server (reads-floor-server.ts) started for it. */
async function loadFloor(
  floorFile: string,
  paths: Map<string, string>,
  env: NodeJS.ProcessEnv = {},
): Promise<Map<string, TRun>> {
  const server = await startServer('bench/reads-floor-server.ts', {
    FLOOR_DATA: floorFile,
    ...env,
  });
  const runs = new Map<string, TRun>();
  try {
    for (const read of READS) runs.set(read.name, await load(server, paths.get(read.name)!));
  } finally {
    await server.stop();
  }
  return runs;
}

/**
 * The API reads the screens make most, each under autocannon beside a bare Fastify process
 * serving the very bytes Portico answered (reads-floor-server.ts). Seeded through the API; the
 * administrator's role and the 500-line run are written in the database while Portico is
 * stopped (no SSH server here to deploy to), then Portico starts again and is measured.
 */
export function readsBenchmark(target: TReadsTarget): TBenchmark {
  return {
    name: `API reads (${CONNECTIONS} connections, ${DURATION_S} s each, ${target.label})`,
    async run(): Promise<TFigure[]> {
      const prepared = await target.prepare();
      const bodies: Record<string, string> = {};
      const app = new Map<string, TRun>();
      const paths = new Map<string, string>();
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
          for (const read of READS) {
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
            const client = read.as(world);
            const answer = await fetch(`${portico.url}${path}`, {
              headers: { cookie: client.cookieHeader() },
            });
            const body = await answer.text();
            if (answer.status !== 200) throw new Error(`GET ${path} answered ${answer.status}`);
            bodies[path] = body;
            paths.set(read.name, path);
            const kB = (Buffer.byteLength(body) / 1000).toFixed(1);
            console.info(
              `  ${read.name}: GET ${path.replace(/[0-9a-f-]{36}/, ':id')}, ${read.what}, ${kB} kB`,
            );
            app.set(read.name, await load(portico, path, client.cookieHeader()));
          }
        } finally {
          world.owner.close();
          world.admin.close();
          await portico.stop();
        }
      } finally {
        await prepared.cleanup();
      }

      const floorDir = mkdtempSync(join(tmpdir(), 'portico-bench-reads-floor-'));
      const floorFile = join(floorDir, 'bodies.json');
      writeFileSync(floorFile, JSON.stringify(bodies));
      const figures: TFigure[] = [];
      const failed: TFigure = { label: 'failed requests', value: 0, floor: 0, unit: '' };
      try {
        const floors = await loadFloor(floorFile, paths);
        const oneQuery = target.floorDatabaseUrl
          ? await loadFloor(floorFile, paths, { FLOOR_DATABASE_URL: target.floorDatabaseUrl })
          : undefined;
        for (const read of READS) {
          const floor = floors.get(read.name)!;
          const mine = app.get(read.name)!;
          figures.push(
            {
              label: `${read.name} req/s`,
              value: mine.result.requests.average,
              floor: floor.result.requests.average,
              unit: '',
              goal: 'goal ≥ 50 %',
            },
            {
              label: `${read.name} p99`,
              value: mine.result.latency.p99,
              floor: floor.result.latency.p99,
              unit: ' ms',
              goal: 'goal ≤ 300 %',
            },
            { label: `${read.name} CPU/req`, value: mine.cpuUs, floor: floor.cpuUs, unit: ' µs' },
          );
          const withQuery = oneQuery?.get(read.name);
          if (withQuery) {
            figures.push({
              label: `${read.name} req/s`,
              value: mine.result.requests.average,
              floor: withQuery.result.requests.average,
              unit: '',
              goal: `floor asking the database once: ${fmtPercent(withQuery, floor)} of the bare floor`,
            });
          }
          failed.value += mine.result.errors;
          failed.floor += floor.result.errors + (withQuery?.result.errors ?? 0);
        }
      } finally {
        rmSync(floorDir, { recursive: true, force: true });
      }
      return [...figures, failed];
    },
  };
}
