import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ShellQuoteError, shellQuote, shellQuoteAll } from './shell-quote';

// Characters that break hand-written escaping, mixed into otherwise random full-unicode text.
const hostile = [
  "'",
  '"',
  '\\',
  '$',
  '(',
  ')',
  '`',
  ';',
  '|',
  '&',
  '<',
  '>',
  '*',
  '?',
  '[',
  ']',
  '{',
  '}',
  '~',
  '#',
  '!',
  '%',
  '=',
  '-',
  '--',
  ' ',
  '\t',
  '\n',
  '\r',
  '\u2028',
  '\u2029',
  '$(id)',
  '`id`',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${…} is the point here
  '${HOME}',
  "'\\''",
  '\\n',
  'é',
  '😀',
];
const nastyString = fc.string({
  unit: fc.oneof(
    fc.constantFrom(...hostile),
    // One random code point; NUL has its own test below.
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }).filter((c) => c !== '\0'),
  ),
  maxLength: 40,
});
const shells = ['/bin/sh', '/bin/bash'];

/**
 * Each value through its own `printf` of one script, each printed followed by a NUL (which no
 * value holds): one shell started for many values, since starting one costs more than all it
 * then runs (200 shells a test outlasted its 30 s on a busy 2-core machine).
 */
function echoEachThrough(shell: string, values: readonly string[]): string {
  const script = values.map((value) => `printf '%s\\0' ${shellQuote(value)}`).join('\n');
  return execFileSync(shell, ['-c', script], { encoding: 'utf8' });
}

describe('shellQuote', () => {
  for (const shell of shells) {
    it(`${shell} prints exactly the input for random hostile strings`, () => {
      fc.assert(
        // 200 values, 20 a shell.
        fc.property(fc.array(nastyString, { minLength: 20, maxLength: 20 }), (values) => {
          expect(echoEachThrough(shell, values)).toBe(values.map((v) => `${v}\0`).join(''));
        }),
        { numRuns: 10 },
      );
    });

    it(`${shell} sees a quoted list as exactly those positional arguments`, () => {
      // Ten lists a shell (starting a shell from this worker is what costs), ten shells: each
      // list's count, then its arguments, every field ended by a NUL, which no value holds.
      fc.assert(
        fc.property(
          fc.array(fc.array(nastyString, { maxLength: 5 }), { minLength: 10, maxLength: 10 }),
          (lists) => {
            const script = lists
              .map(
                (values) =>
                  `set -- ${shellQuoteAll(values)}; printf '%s\\0' "$#"; for a; do printf '%s\\0' "$a"; done`,
              )
              .join('\n');
            const fields = execFileSync(shell, ['-c', script], { encoding: 'utf8' }).split('\0');
            let at = 0;
            for (const values of lists) {
              expect(Number(fields[at++])).toBe(values.length);
              expect(fields.slice(at, at + values.length)).toEqual(values);
              at += values.length;
            }
            expect(fields.slice(at)).toEqual(['']);
          },
        ),
        { numRuns: 10 },
      );
    });
  }

  it('quotes the empty string as an empty word, not nothing', () => {
    expect(shellQuote('')).toBe("''");
    expect(execFileSync('/bin/sh', ['-c', `set -- ${shellQuote('')}; echo $#`]).toString()).toBe(
      '1\n',
    );
  });

  it('keeps a leading dash inside the word (option injection is the callee’s job via --)', () => {
    expect(shellQuote('-rf')).toBe("'-rf'");
  });

  it('writes a single quote as close-escape-reopen', () => {
    expect(shellQuote("it's")).toBe("'it'\\''s'");
  });

  it('refuses NUL', () => {
    expect(() => shellQuote('a\0b')).toThrow(ShellQuoteError);
    expect(() => shellQuoteAll(['ok', '\0'])).toThrow(ShellQuoteError);
  });
});
