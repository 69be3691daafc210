import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { removeTestTempDir, testTempDir } from '../../test/support/temp-dir';
import { loadOrCreateSessionSecret } from './session-secret';

/** A session secret path in a folder of the running test, removed when it ends. */
function fileIn(): string {
  const dir = testTempDir('portico-secret-');
  onTestFinished(() => removeTestTempDir(dir));
  return join(dir, 'sub', 'session.secret');
}

describe('session secret', () => {
  it('prefers the environment value and writes nothing', () => {
    const path = fileIn();
    expect(loadOrCreateSessionSecret(path, 'e'.repeat(40))).toBe('e'.repeat(40));
    expect(() => statSync(path)).toThrow();
  });

  it('generates once (mode 0600) and reads the same value back', () => {
    const path = fileIn();
    const first = loadOrCreateSessionSecret(path);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(loadOrCreateSessionSecret(path)).toBe(first);
    expect(readFileSync(path, 'utf8').trim()).toBe(first);
  });

  it('refuses a file too short to be a secret', () => {
    const path = fileIn();
    loadOrCreateSessionSecret(path);
    writeFileSync(path, 'short\n');
    expect(() => loadOrCreateSessionSecret(path)).toThrow(/fewer than 32 characters/);
  });
});
