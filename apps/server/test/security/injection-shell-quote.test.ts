// Injection: the quoting function and the command line the engine sends, fed with the
// shared hostile corpus and full-Unicode strings, through a real /bin/sh (and the bash the
// engine's wrapper starts). Output is compared byte for byte, never through a decoder that could
// hide a difference.
import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ShellQuoteError, shellQuote, shellQuoteAll } from '../../src/deploy/shell-quote';
import { buildCommand } from '../../src/deploy/ssh/run';
import { HOSTILE_FRAGMENTS, NUL } from './injection-corpus';

/** Strings UTF-8 can carry unchanged (a lone surrogate cannot reach argv as itself). */
const carriable = (s: string) => !s.includes(NUL) && Buffer.from(s, 'utf8').toString('utf8') === s;

const corpus = HOSTILE_FRAGMENTS.filter(carriable);

/** Full-Unicode text with corpus fragments spliced in; never NUL. */
const hostileText = fc
  .array(
    fc.oneof(
      { weight: 2, arbitrary: fc.constantFrom(...corpus) },
      { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
    ),
    { maxLength: 8 },
  )
  .map((parts) => parts.join(''))
  .filter(carriable);

function sh(script: string): Buffer {
  const r = spawnSync('/bin/sh', ['-c', script]);
  expect(r.stderr.toString()).toBe('');
  expect(r.status).toBe(0);
  return r.stdout;
}

describe('shellQuote through a real /bin/sh', () => {
  it('every corpus fragment comes back byte for byte', () => {
    for (const fragment of corpus) {
      expect(sh(`printf %s ${shellQuote(fragment)}`), JSON.stringify(fragment)).toEqual(
        Buffer.from(fragment, 'utf8'),
      );
    }
  });

  it('random full-Unicode strings with the corpus spliced in come back byte for byte', () => {
    // 300 values, each through its own printf, 20 a shell (starting a shell is the cost).
    fc.assert(
      fc.property(fc.array(hostileText, { minLength: 20, maxLength: 20 }), (values) => {
        const script = values.map((value) => `printf '%s\\0' ${shellQuote(value)}`).join('\n');
        expect(sh(script)).toEqual(Buffer.from(values.map((v) => `${v}\0`).join(''), 'utf8'));
      }),
      { numRuns: 15 },
    );
  });

  it('a quoted list is exactly those arguments, in order, none split or merged', () => {
    // Ten lists a shell, one printf each (starting a shell from this worker is what costs).
    fc.assert(
      fc.property(
        fc.array(fc.array(hostileText, { maxLength: 6 }), { minLength: 10, maxLength: 10 }),
        (lists) => {
          const out = sh(
            lists.map((values) => `printf '%s\\0' ${shellQuoteAll(values)} end`).join('\n'),
          );
          const expected = lists.flatMap((values) => [...values, 'end'].map((v) => `${v}\0`));
          expect(out).toEqual(Buffer.from(expected.join(''), 'utf8'));
        },
      ),
      { numRuns: 10 },
    );
  });

  it('refuses NUL anywhere in a value, alone or spliced into hostile text', () => {
    fc.assert(
      fc.property(hostileText, fc.nat(), (value, at) => {
        const i = at % (value.length + 1);
        const poisoned = `${value.slice(0, i)}${NUL}${value.slice(i)}`;
        expect(() => shellQuote(poisoned)).toThrow(ShellQuoteError);
        expect(() => shellQuoteAll(['ok', poisoned])).toThrow(ShellQuoteError);
      }),
      { numRuns: 100 },
    );
  });

  it('refuses what is not a string instead of quoting its text form', () => {
    for (const value of [42, null, undefined, ['a'], { toString: () => 'x' }]) {
      expect(() => shellQuote(value as unknown as string)).toThrow(ShellQuoteError);
    }
  });
});

describe('the engine command line (buildCommand, no sudo) through a real /bin/sh', () => {
  // The same text the engine hands to the SSH server's login shell: sh parses it, then the
  // wrapper starts bash with the script and the arguments as $1, $2, …
  it('the script sees each argument exactly as given', () => {
    fc.assert(
      fc.property(fc.array(hostileText, { minLength: 1, maxLength: 4 }), (args) => {
        const command = buildCommand(`printf '%s\\0' "$@"`, args, undefined);
        expect(sh(command)).toEqual(Buffer.from(args.map((a) => `${a}\0`).join(''), 'utf8'));
      }),
      { numRuns: 100 },
    );
  });

  it('refuses an argument carrying NUL before anything is sent', () => {
    expect(() => buildCommand('true', [`example.com${NUL}; id`], undefined)).toThrow(
      ShellQuoteError,
    );
  });
});
