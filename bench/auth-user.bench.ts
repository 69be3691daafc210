import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon, { type TAutocannonResult } from 'autocannon';
import { startTsServer } from './lib/process';
import type { TBenchmark, TFigure } from './run';

const CONNECTIONS = 50;
const DURATION_S = 10;

function cookieFrom(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((c) => c.split(';', 1)[0])
    .join('; ');
}

/** Registers a user over HTTP like the web app does and returns the signed-in cookie. */
async function signIn(url: string): Promise<string> {
  const csrf = await fetch(`${url}/api/csrf-token`);
  const { token } = (await csrf.json()) as { token: string };
  const register = await fetch(`${url}/api/register`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-csrf-token': token,
      cookie: cookieFrom(csrf),
    },
    body: JSON.stringify({
      username: 'bench_user',
      email: 'bench@example.test',
      password: 'Bench1234',
    }),
  });
  if (register.status !== 201) throw new Error(`register answered ${register.status}`);
  return cookieFrom(register);
}

async function load(url: string, headers: Record<string, string>): Promise<TAutocannonResult> {
  const result = await autocannon({
    url: `${url}/api/auth/user`,
    connections: CONNECTIONS,
    duration: DURATION_S,
    headers,
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${result.non2xx} non-2xx answers and ${result.errors} errors under load`);
  }
  return result;
}

export interface TTarget {
  label: string;
  /** Environment for the Portico process, and how to clean up after it. */
  prepare(): Promise<{ env: NodeJS.ProcessEnv; cleanup(): Promise<void> }>;
}

export function authUserBenchmark(target: TTarget): TBenchmark {
  return {
    name: `GET /api/auth/user signed in (${CONNECTIONS} connections, ${DURATION_S} s, ${target.label})`,
    async run(): Promise<TFigure[]> {
      const prepared = await target.prepare();
      const portico = await startTsServer('apps/server/src/main.ts', {
        LOG_LEVEL: 'info',
        ...prepared.env,
      });
      let app: TAutocannonResult;
      let body: string;
      try {
        const cookie = await signIn(portico.url);
        body = await (await fetch(`${portico.url}/api/auth/user`, { headers: { cookie } })).text();
        app = await load(portico.url, { cookie });
      } finally {
        await portico.stop();
        await prepared.cleanup();
      }
      const floorServer = await startTsServer('bench/floor-server.ts', { FLOOR_BODY: body });
      let floor: TAutocannonResult;
      try {
        floor = await load(floorServer.url, {});
      } finally {
        await floorServer.stop();
      }
      return [
        {
          label: 'requests/s',
          value: app.requests.average,
          floor: floor.requests.average,
          unit: '',
        },
        { label: 'latency p99', value: app.latency.p99, floor: floor.latency.p99, unit: ' ms' },
      ];
    },
  };
}

export const benchmark = authUserBenchmark({
  label: 'PGlite',
  async prepare() {
    const dataDir = mkdtempSync(join(tmpdir(), 'portico-bench-'));
    return {
      env: { PORTICO_DATA_DIR: dataDir, DATABASE_URL: '' },
      cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  },
});
