// Labs start side by side (the lab tiers run several test files at once), and each start first
// sweeps the labs of crashed runs, then claims a free number. Two sweeps of one crashed lab, or a
// sweep still deleting `ptlK-…` names while another process claims K again and makes new ones
// under the same names, would tear down a live lab: so sweeping and claiming happen one process
// at a time, under this lock.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { LAB_ROOT } from './names';
import { LAB_ENV } from './run';

export const START_LOCK_FILE = path.join(LAB_ROOT, 'start.lock');

/**
 * Runs `fn` holding an exclusive flock(1) on START_LOCK_FILE. The lock belongs to a small child
 * process that keeps it until its stdin closes: when this process ends, however it ends, the pipe
 * closes and the kernel releases the lock, so a crash never leaves it held.
 */
export async function withStartLock<T>(fn: () => Promise<T>): Promise<T> {
  mkdirSync(LAB_ROOT, { recursive: true, mode: 0o700 });
  const holder = spawn('flock', ['--exclusive', START_LOCK_FILE, 'sh', '-c', 'echo held; cat'], {
    env: LAB_ENV,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  holder.stderr.on('data', (d: Buffer) => {
    stderr += d;
  });
  const exited = new Promise<void>((resolve) => holder.once('close', () => resolve()));
  try {
    await new Promise<void>((resolve, reject) => {
      holder.stdout.once('data', () => resolve());
      holder.once('error', reject);
      holder.once('close', (code) => reject(new Error(`flock exited ${code}: ${stderr.trim()}`)));
    });
    return await fn();
  } finally {
    holder.stdin.end();
    await exited;
  }
}
