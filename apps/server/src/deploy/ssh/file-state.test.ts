import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sameFile } from './file-state';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('sameFile: a write that would change nothing is left out', () => {
  it('known by their SHA-256: the same content and mode only', () => {
    const state = { exists: true as const, mode: 0o644, sha256: sha256('server {}\n') };
    expect(sameFile(state, 'server {}\n', 0o644)).toBe(true);
    expect(sameFile(state, Buffer.from('server {}\n'), 0o644)).toBe(true);
    expect(sameFile(state, 'server { }\n', 0o644)).toBe(false);
    expect(sameFile(state, 'server {}\n', 0o600)).toBe(false);
  });

  it('a file that does not exist is never the same', () => {
    expect(sameFile({ exists: false }, '', 0o644)).toBe(false);
  });
});
