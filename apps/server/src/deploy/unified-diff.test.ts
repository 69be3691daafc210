import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { removeTestTempDir, testTempDir } from '../../test/support/temp-dir';
import { unifiedDiff } from './unified-diff';

/** Applies a unified diff with GNU patch: the diff must turn `before` into `after`. */
function patched(before: string, diff: string): string {
  const dir = testTempDir('portico-diff-');
  try {
    const file = join(dir, 'site');
    writeFileSync(file, before);
    writeFileSync(join(dir, 'change.diff'), diff);
    execFileSync('patch', ['-s', file, join(dir, 'change.diff')]);
    return execFileSync('cat', [file]).toString();
  } finally {
    removeTestTempDir(dir);
  }
}

describe('unifiedDiff', () => {
  it('is empty when nothing changes', () => {
    expect(unifiedDiff('/etc/nginx/x', 'a\nb\n', 'a\nb\n')).toBe('');
  });

  it('a new file is all added lines against /dev/null', () => {
    expect(unifiedDiff('/etc/nginx/x', null, 'a\nb\n')).toBe(
      '--- /dev/null\n+++ /etc/nginx/x\n@@ -0,0 +1,2 @@\n+a\n+b\n',
    );
  });

  it('one changed line in a long file: one hunk with three lines of context', () => {
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i}`);
    const after = [...lines];
    after[10] = 'changed';
    expect(unifiedDiff('/f', `${lines.join('\n')}\n`, `${after.join('\n')}\n`)).toBe(
      [
        '--- /f',
        '+++ /f',
        '@@ -8,7 +8,7 @@',
        ' line 7',
        ' line 8',
        ' line 9',
        '-line 10',
        '+changed',
        ' line 11',
        ' line 12',
        ' line 13',
        '',
      ].join('\n'),
    );
  });

  it('GNU patch turns the old text into the new one with it (any lines)', () => {
    const text = fc
      .array(fc.constantFrom('a', 'b', 'c', 'server {', '}', ''), { maxLength: 30 })
      .map((lines) => (lines.length ? `${lines.join('\n')}\n` : ''));
    fc.assert(
      fc.property(text, text, (before, after) => {
        const diff = unifiedDiff('/f', before, after);
        if (before === after) return diff === '';
        return patched(before, diff) === after;
      }),
      { numRuns: 60 },
    );
  });
});
