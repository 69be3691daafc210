// Small process helpers: run a command to completion, or start a daemon that outlives us.
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import type { TExecResult } from './types';

/** A clean environment so nothing from the caller's shell leaks into lab processes. */
export const LAB_ENV: NodeJS.ProcessEnv = {
  PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
  LANG: 'C.UTF-8',
  HOME: '/root',
};

export type TRunOptions = { input?: string; env?: NodeJS.ProcessEnv; cwd?: string };

export function run(cmd: string, args: string[], options: TRunOptions = {}): Promise<TExecResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      env: options.env ?? LAB_ENV,
      cwd: options.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('error', reject);
    child.on('close', (code, signal) =>
      resolve({
        code: code ?? (signal ? 128 : 1),
        stdout: Buffer.concat(out).toString(),
        stderr: Buffer.concat(err).toString(),
      }),
    );
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? '');
  });
}

/** Runs a command and throws with its stderr when it fails. */
export async function runOk(cmd: string, args: string[], options?: TRunOptions): Promise<string> {
  const result = await run(cmd, args, options);
  if (result.code !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} exited ${result.code}: ${result.stderr.trim()}`);
  }
  return result.stdout;
}

export type TDaemonOptions = { logFile: string; env?: NodeJS.ProcessEnv; cwd?: string };

/** Starts a process in its own session, output to a log file, not tied to our lifetime. */
export function startDaemon(cmd: string, args: string[], options: TDaemonOptions): number {
  const log = openSync(options.logFile, 'a');
  try {
    const child = spawn(cmd, args, {
      env: options.env ?? LAB_ENV,
      cwd: options.cwd,
      detached: true,
      stdio: ['ignore', log, log],
    });
    if (child.pid === undefined) throw new Error(`could not start ${cmd}`);
    child.on('error', () => {});
    child.unref();
    return child.pid;
  } finally {
    closeSync(log);
  }
}

/** Alive means present and not a zombie: this machine's PID 1 reaps orphans lazily. */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until check() is true; throws explain() when the time is up. */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  explain: () => string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(explain());
    await sleep(25);
  }
}
