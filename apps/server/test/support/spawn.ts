import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { entryArgs } from './test-bundle';

export const SERVER_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface TRunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface TRunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Written to stdin, then closed; null gives /dev/null instead (not a pipe or socket). */
  input?: string | null;
  timeoutMs?: number;
}

/** Runs a program to its end, collecting what it printed; killed after the timeout. */
export function runProcess(
  command: string,
  args: string[],
  options: TRunOptions = {},
): Promise<TRunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...options.env },
      stdio: [options.input === null ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => {
      stdout += d;
    });
    child.stderr!.on('data', (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    if (options.input !== null) child.stdin!.end(options.input ?? '');
  });
}

/**
 * Runs an entry point (src/cli.ts, src/main.ts) as a real process: from the run's bundle
 * (test-bundle.ts), else through tsx.
 */
export function runTs(
  entry: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number } = {},
): Promise<TRunResult> {
  return runProcess(process.execPath, [...entryArgs(entry), ...args], {
    ...options,
    cwd: SERVER_ROOT,
  });
}
