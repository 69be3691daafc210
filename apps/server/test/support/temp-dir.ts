// Temporary folders for tests, under the OS temp dir, that do not outlive the test process: some
// hold test secret keys, and a run would otherwise leave hundreds of them behind. Plain Node (no
// vitest import): test-pki.ts, which uses it, is loaded by Playwright specs and benches too.
// A test that makes many folders removes each when done with it (removeTestTempDir in a finally,
// afterEach, afterAll or onTestFinished); the end of the process catches the rest.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const MADE = Symbol.for('portico.test-temp-dirs');

function remove(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true });
  } catch {
    // Left to the OS: removing the others matters more.
  }
}

/**
 * The folders made and not removed yet, one set per process: on globalThis, so a file that loads
 * this module again does not add listeners. They are removed on exit and on SIGTERM/SIGINT, since
 * Vitest stops its fork workers with SIGTERM, which ends a process without its 'exit' event.
 */
function made(): Set<string> {
  const holder = globalThis as { [MADE]?: Set<string> };
  if (holder[MADE]) return holder[MADE];
  const dirs = new Set<string>();
  holder[MADE] = dirs;
  const removeAll = () => {
    for (const dir of dirs) remove(dir);
    dirs.clear();
  };
  process.once('exit', removeAll);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      removeAll();
      // Our listener kept the signal from ending the process: end it as it would have.
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    });
  }
  return dirs;
}

/**
 * A fresh folder `<tmpdir>/<prefix>XXXXXX`, removed by removeTestTempDir or, at the latest, when
 * the test process ends.
 */
export function testTempDir(prefix: string): string {
  const dirs = made();
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.add(dir);
  return dir;
}

/** Removes a folder testTempDir made, now. */
export function removeTestTempDir(dir: string): void {
  made().delete(dir);
  remove(dir);
}
