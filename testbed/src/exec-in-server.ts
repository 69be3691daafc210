// Running a command inside a test server, as its root, for tests that inspect or break it.
import { labNames } from './names';
import { netnsPids } from './network';
import { LAB_ENV, run } from './run';
import { findInitPid } from './server';
import type { TExecResult, TLabStatus } from './types';

export type TExecOptions = {
  /** The lab (its status or number); defaults to env PORTICO_LAB_ID, else the CLI's lab 0. */
  lab?: TLabStatus | number;
  input?: string;
};

function labId(lab: TExecOptions['lab']): number {
  if (typeof lab === 'number') return lab;
  if (lab) return lab.id;
  return Number(process.env.PORTICO_LAB_ID ?? 0);
}

/** Runs argv (no shell unless you ask for one) in every namespace of the server. */
export async function execInServer(
  serverName: string,
  argv: string[],
  options: TExecOptions = {},
): Promise<TExecResult> {
  const index = Number(/^s(\d+)$/.exec(serverName)?.[1] ?? Number.NaN);
  const server = labNames(labId(options.lab)).server(index);
  const initPid = findInitPid(await netnsPids(server.netns));
  if (initPid === undefined) throw new Error(`lab server ${serverName} is not running`);
  const enter = ['--target', String(initPid), '--mount', '--uts', '--net', '--pid', '--ipc'];
  return run('nsenter', [...enter, '--root', '--wd', '--', ...argv], {
    env: LAB_ENV,
    input: options.input,
  });
}
