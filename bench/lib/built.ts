import { spawnSync } from 'node:child_process';
import { REPO_ROOT } from './process';

/** The server as `npm start` runs it: the esbuild bundle on plain node, not tsx. */
export const BUILT_MAIN = 'apps/server/dist/main.js';
export const FLOOR_JS = 'bench/floor-server.js';

let built = false;

/** Builds the server bundle once per benchmark run (a second or two with esbuild). */
export function buildServer(): void {
  if (built) return;
  const r = spawnSync('npm', ['run', 'build', '-w', '@portico/server'], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (r.status !== 0) throw new Error(`building the server failed (${r.status})`);
  built = true;
}
