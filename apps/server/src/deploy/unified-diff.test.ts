import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { removeTestTempDir, testTempDir } from '../../test/support/temp-dir';
import { unifiedDiff } from './unified-diff';

/**
 * Applies each unified diff with GNU patch, all in one shell (starting a process from a large
 * test worker is what costs: one a case outlasted the test's 30 s on a busy 2-core machine):
 * what each diff turns its `before` into.
 */
function patchedAll(cases: { before: string; diff: string }[]): string[] {
  const dir = testTempDir('portico-diff-');
  try {
    const script = cases.map(({ before, diff }, i) => {
      writeFileSync(join(dir, `site${i}`), before);
      writeFileSync(join(dir, `change${i}.diff`), diff);
      return `patch -s site${i} change${i}.diff`;
    });
    execFileSync('sh', ['-c', script.join(' && ') || 'true'], { cwd: dir });
    return cases.map((_, i) => readFileSync(join(dir, `site${i}`), 'utf8'));
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
    // Ten pairs a shell, six shells: sixty cases, as one a case before.
    fc.assert(
      fc.property(fc.array(fc.tuple(text, text), { minLength: 10, maxLength: 10 }), (pairs) => {
        const same = pairs.filter(([before, after]) => before === after);
        if (same.some(([before, after]) => unifiedDiff('/f', before, after) !== '')) return false;
        const changed = pairs.filter(([before, after]) => before !== after);
        const results = patchedAll(
          changed.map(([before, after]) => ({ before, diff: unifiedDiff('/f', before, after) })),
        );
        return results.every((result, i) => result === changed[i]![1]);
      }),
      { numRuns: 6 },
    );
  });
});
