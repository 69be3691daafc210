import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/**
 * PGlite does not lock its data directory and two processes on one directory lose rows, so the
 * server and the CLI take `<dataDir>/portico.lock` (holding the pid) before opening it.
 */

export class DataDirLockedError extends Error {
  constructor(
    readonly lockPath: string,
    readonly pid: number,
  ) {
    super(
      `Another Portico process (pid ${pid}) is using this data directory (${lockPath}). ` +
        'Stop it first, or point PORTICO_DATA_DIR elsewhere. If no such process is running, ' +
        'delete the lock file.',
    );
    this.name = 'DataDirLockedError';
  }
}

export interface TDataDirLock {
  path: string;
  release(): void;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readPid(path: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(path, 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

export function acquireDataDirLock(dataDir: string): TDataDirLock {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const path = join(dataDir, 'portico.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      let released = false;
      return {
        path,
        release() {
          if (released) return;
          released = true;
          if (readPid(path) === process.pid) unlinkSync(path);
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = readPid(path);
      // The writer may be between open and write: an empty file is only stale if it stays so.
      if (pid !== undefined && isAlive(pid)) throw new DataDirLockedError(path, pid);
      if (pid === undefined && attempt === 0) {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
        continue;
      }
      try {
        unlinkSync(path);
      } catch {
        // Another process took the stale lock over first; the next attempt sees its pid.
      }
    }
  }
  throw new DataDirLockedError(path, readPid(path) ?? 0);
}
