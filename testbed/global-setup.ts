// Vitest global setup for tiers that deploy to test servers: one lab for the whole run.
//   globalSetup: ['../../testbed/global-setup.ts'], then in a test: inject('lab')
// PORTICO_LAB_SERVERS sets the number of servers (default 2); PORTICO_LAB_VARIANTS chooses
// variants, e.g. "s2=nginx-stopped s3=port80-busy,existing-site".
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { startLab, type TLabStatus } from './src/lab';
import { parseVariants } from './src/variants';

declare module 'vitest' {
  export interface ProvidedContext {
    lab: TLabStatus;
  }
}

export default async function setup(project: Pick<TestProject, 'provide'>) {
  const servers = Number(process.env.PORTICO_LAB_SERVERS ?? 2);
  const variants = parseVariants((process.env.PORTICO_LAB_VARIANTS ?? '').split(/\s+/));
  const lab = await startLab({ servers, variants });
  process.env.PORTICO_LAB_ID = String(lab.status.id);
  project.provide('lab', lab.status);
  // Safety net for runs interrupted before teardown (Ctrl-C): exit handlers must be synchronous.
  // A run killed outright is swept by the next startLab instead.
  let stopped = false;
  const stopOnExit = () => {
    if (stopped) return;
    const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));
    const argv = ['--import', 'tsx', cli, 'down', '--lab', String(lab.status.id)];
    spawnSync(process.execPath, argv, { cwd: path.dirname(path.dirname(cli)), stdio: 'ignore' });
  };
  process.once('exit', stopOnExit);
  return async () => {
    process.off('exit', stopOnExit);
    await lab.stop();
    stopped = true;
  };
}
