import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { runTs, SERVER_ROOT } from '../test/support/spawn';
import { removeTestTempDir, testTempDir } from '../test/support/temp-dir';
import { entryArgs } from '../test/support/test-bundle';

/** A data dir for the running test, removed when it ends. */
const tempDir = () => {
  const dir = testTempDir('portico-main-');
  onTestFinished(() => removeTestTempDir(dir));
  return dir;
};

/** Starts src/main.ts (the run's bundle, test-bundle.ts) on a free port; resolves once it listens. */
function startServer(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, entryArgs('src/main.ts'), {
      cwd: SERVER_ROOT,
      env: { PATH: process.env.PATH, PORTICO_DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const match = out.match(/Server listening at (http:\/\/127\.0\.0\.1:\d+)/);
      if (match) resolve({ child, url: match[1]! });
    });
    child.stderr!.on('data', (d) => {
      out += d;
    });
    child.on('exit', (code) => reject(new Error(`server exited ${code}: ${out}`)));
  });
}

describe('the server process', { timeout: 120_000 }, () => {
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) child.kill('SIGKILL');
  });

  it('starts on PGlite, refuses a second process on the same dir, and shuts down cleanly', async () => {
    const dataDir = tempDir();
    const { child, url } = await startServer(dataDir);
    children.push(child);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    for (const file of ['session.secret', 'secret.key', 'portico.lock']) {
      expect(existsSync(join(dataDir, file))).toBe(true);
    }
    expect(statSync(join(dataDir, 'session.secret')).mode & 0o777).toBe(0o600);

    const second = await runTs('src/main.ts', [], {
      env: { PORTICO_DATA_DIR: dataDir, PORT: '0' },
    });
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`Another Portico process (pid ${child.pid})`);

    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(existsSync(join(dataDir, 'portico.lock'))).toBe(false);
  });

  it('stops with a message naming a bad variable', async () => {
    const result = await runTs('src/main.ts', [], {
      env: { PORTICO_DATA_DIR: tempDir(), PORT: 'eighty', PORTICO_REGISTRATION: 'sometimes' },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Invalid configuration');
    expect(result.stderr).toContain('PORT: must be a whole number between 0 and 65535');
    expect(result.stderr).toContain('PORTICO_REGISTRATION: must be "open" or "closed"');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
