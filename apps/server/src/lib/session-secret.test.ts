import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadOrCreateSessionSecret } from './session-secret';

const fileIn = () => join(mkdtempSync(join(tmpdir(), 'portico-secret-')), 'sub', 'session.secret');

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
