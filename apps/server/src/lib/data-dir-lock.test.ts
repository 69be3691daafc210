import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { removeTestTempDir, testTempDir } from '../../test/support/temp-dir';
import { acquireDataDirLock, DataDirLockedError } from './data-dir-lock';

/** A folder for the running test, removed when it ends. */
const tempDir = () => {
  const dir = testTempDir('portico-lock-');
  onTestFinished(() => removeTestTempDir(dir));
  return dir;
};

/** The pid of a process that has certainly exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

describe('data dir lock', () => {
  it('writes our pid, refuses a second holder, and releases', () => {
    const dir = tempDir();
    const lock = acquireDataDirLock(dir);
    expect(readFileSync(join(dir, 'portico.lock'), 'utf8').trim()).toBe(String(process.pid));
    let refused: unknown;
    try {
      acquireDataDirLock(dir);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(DataDirLockedError);
    expect((refused as DataDirLockedError).pid).toBe(process.pid);
    expect((refused as Error).message).toMatch(/Another Portico process \(pid \d+\)/);
    lock.release();
    expect(existsSync(join(dir, 'portico.lock'))).toBe(false);
    acquireDataDirLock(dir).release();
  });

  it('takes over a stale lock whose process is gone', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'portico.lock'), `${deadPid()}\n`);
    const lock = acquireDataDirLock(dir);
    expect(readFileSync(join(dir, 'portico.lock'), 'utf8').trim()).toBe(String(process.pid));
    lock.release();
  });

  it('takes over an empty or garbled lock file', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'portico.lock'), 'garbage');
    acquireDataDirLock(dir).release();
  });

  it('does not delete a lock that another process holds now', () => {
    const dir = tempDir();
    const lock = acquireDataDirLock(dir);
    writeFileSync(join(dir, 'portico.lock'), '1\n');
    lock.release();
    expect(readFileSync(join(dir, 'portico.lock'), 'utf8').trim()).toBe('1');
  });
});
