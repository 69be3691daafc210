import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILT_MAIN, buildServer, FLOOR_JS } from './lib/built';
import { startServer } from './lib/process';
import type { TBenchmark, TFigure } from './run';

/**
 * From spawning the built server (as `npm start` runs it) to its first healthy /healthz, on the
 * embedded default: a new data dir (created, migrated), then the same dir again (warm), each the
 * median of RUNS, beside a bare Fastify process on plain node. The CPU the process used by then
 * is printed too: on a machine shared with other work the wall time stretches, the CPU does not.
 */
const RUNS = 3;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface TStart {
  wall: number;
  cpu: number;
}

async function startAndStop(entry: string, env: NodeJS.ProcessEnv): Promise<TStart> {
  const server = await startServer(entry, env);
  await server.stop();
  return { wall: server.startMs, cpu: server.startCpuMs };
}

function figures(what: string, runs: TStart[], floor: TStart[], goal: string): TFigure[] {
  return [
    {
      label: what,
      value: median(runs.map((r) => r.wall)),
      floor: median(floor.map((r) => r.wall)),
      unit: ' ms',
      goal,
    },
    {
      label: `${what}, CPU`,
      value: median(runs.map((r) => r.cpu)),
      floor: median(floor.map((r) => r.cpu)),
      unit: ' ms',
    },
  ];
}

export const benchmark: TBenchmark = {
  name: `Start to /healthz (built server, PGlite, median of ${RUNS})`,
  async run(): Promise<TFigure[]> {
    buildServer();
    const fresh: TStart[] = [];
    const warm: TStart[] = [];
    const floor: TStart[] = [];
    for (let i = 0; i < RUNS; i++) {
      const dataDir = mkdtempSync(join(tmpdir(), 'portico-bench-start-'));
      const env = { PORTICO_DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'info' };
      try {
        fresh.push(await startAndStop(BUILT_MAIN, env));
        warm.push(await startAndStop(BUILT_MAIN, env));
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
      floor.push(await startAndStop(FLOOR_JS, {}));
    }
    return [
      ...figures('new data dir', fresh, floor, 'goal ≤ 5 s'),
      ...figures('existing dir', warm, floor, 'goal ≤ 2 s'),
    ];
  },
};
