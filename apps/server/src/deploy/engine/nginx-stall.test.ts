import { spawn } from 'node:child_process';
import { renderText } from '@portico/shared/i18n/text';
import { describe, expect, it } from 'vitest';
import { PREFIX_LINES } from './nginx-apply-script';
import { printedWhole, reloadProgress, stalledPart } from './nginx-stall';
import { undoOfUnfinished } from './nginx-writes';
import type { TStepContext } from './step-context';

// What APPLY_SCRIPT prints, part by part, for two files and a link (nginx-apply-script.ts).
const WRITES = [
  'PORTICO_PREV=0 absent',
  'PORTICO_WRITE=0 wrote',
  'PORTICO_PREV=1 644 0 c2VydmVy',
  'PORTICO_WRITE=1 same',
];
const LINKED = ['PORTICO_LINK=created', 'PORTICO_LINK_CODE=0'];
const TESTED = [
  'PORTICO_TEST:nginx: the configuration file syntax is ok',
  'PORTICO_TEST:PORTICO_CODE=0',
];
const RELOADED = ['PORTICO_RELOAD:PORTICO_RELOAD=applied', 'PORTICO_RELOAD:PORTICO_CODE=0'];
const at = (...parts: string[][]) => `${parts.flat().join('\n')}\n`;

describe('stalledPart', () => {
  it('is the writes until every file and the link are reported', () => {
    expect(stalledPart('', 2, true)).toBe('write');
    expect(stalledPart(at(WRITES.slice(0, 3)), 2, true)).toBe('write');
    expect(stalledPart(at(WRITES), 2, true)).toBe('write');
    expect(stalledPart(at(WRITES, ['PORTICO_LINK=created']), 2, true)).toBe('write');
  });

  it('is the test once the files are written (the link too, when there is one)', () => {
    expect(stalledPart(at(WRITES, LINKED), 2, true)).toBe('test');
    expect(stalledPart(at(WRITES), 2, false)).toBe('test');
    expect(stalledPart(at(WRITES, LINKED, TESTED.slice(0, 1)), 2, true)).toBe('test');
  });

  it('is the reload once the test has ended, and the look once the reload has', () => {
    expect(stalledPart(at(WRITES, LINKED, TESTED), 2, true)).toBe('reload');
    expect(stalledPart(at(WRITES, LINKED, TESTED, RELOADED.slice(0, 1)), 2, true)).toBe('reload');
    expect(stalledPart(at(WRITES, LINKED, TESTED, RELOADED), 2, true)).toBe('look');
    expect(
      stalledPart(at(WRITES, LINKED, TESTED, ['PORTICO_RELOAD:PORTICO_SKIP=live']), 2, true),
    ).toBe('look');
  });
});

describe('a line the stop cut', () => {
  const files = [0, 1].map((i) => ({
    path: `/etc/nginx/conf.d/f${i}.conf`,
    content: '',
    mode: 0o644,
  }));
  // Not called: the undo is only made here, never run.
  const c = {} as TStepContext;

  it('is not read as a write that happened', () => {
    expect(stalledPart(`${at(WRITES.slice(0, 1))}PORTICO_WRITE=0 wro`, 2, false)).toBe('write');
    const unfinished = undoOfUnfinished(
      c,
      files,
      printedWhole(`${at(WRITES.slice(0, 1))}PORTICO_WRITE=0 wro`),
    );
    expect(unfinished?.file).toBe(files[0]);
  });

  it('is not read as the previous bytes of a file to put back', () => {
    const cut = `${at(WRITES.slice(0, 2))}PORTICO_PREV=1 644 0 c2Vy`;
    expect(undoOfUnfinished(c, files, printedWhole(cut))).toBeUndefined();
    expect(undoOfUnfinished(c, files, `${at(WRITES.slice(0, 3))}`)?.file).toBe(files[1]);
  });
});

describe('a reload the limit stopped', () => {
  const began = 'PORTICO_BEGAN=1000.250000';
  const signalled = 'PORTICO_RELOAD:PORTICO_RELOAD_AT=signalled 1001.500000';
  const fresh = 'PORTICO_RELOAD:PORTICO_RELOAD_AT=fresh 1003.125000';
  const said = (printed: string) => {
    const text = reloadProgress(printed);
    return text === undefined
      ? undefined
      : { en: renderText('en', text), es: renderText('es', text) };
  };

  it('says how far it got, from the times the script printed, in both languages', () => {
    expect(said(at([began], WRITES, LINKED, TESTED))).toEqual({
      en: 'nginx had not yet been sent the reload when the time ran out.',
      es: 'A nginx aún no se le había enviado la recarga cuando se acabó el tiempo.',
    });
    expect(said(at([began], WRITES, LINKED, TESTED, [signalled]))).toEqual({
      en: 'nginx was sent the reload 1.3 s into the change; no new worker had started when the time ran out.',
      es: 'Se envió la recarga a nginx a los 1,3 s del cambio; ningún proceso nuevo había arrancado cuando se acabó el tiempo.',
    });
    expect(said(at([began], WRITES, LINKED, TESTED, [signalled, fresh]))?.en).toBe(
      'nginx was sent the reload 1.3 s into the change and its new workers started at 2.9 s; the old ones were still taking connections when the time ran out.',
    );
  });

  it("reads a clock written with the locale's decimal comma, and says nothing without a clock", () => {
    const comma = at(
      ['PORTICO_BEGAN=1000,250000'],
      ['PORTICO_RELOAD:PORTICO_RELOAD_AT=signalled 1001,500000'],
    );
    expect(said(comma)?.en).toContain('1.3 s into the change');
    // bash before 5 has no EPOCHREALTIME: the markers are printed empty.
    expect(
      reloadProgress(at(['PORTICO_BEGAN='], ['PORTICO_RELOAD:PORTICO_RELOAD_AT=signalled '])),
    ).toBeUndefined();
    // A line the stop cut is not read.
    expect(said(`${at([began])}PORTICO_RELOAD:PORTICO_RELOAD_AT=signa`)?.en).toContain(
      'not yet been sent',
    );
  });

  it("passes the reload's lines on as they come, while the script still runs", async () => {
    // sed writing to a pipe held them until it ended: a stopped script showed nothing of them.
    const child = spawn(
      'bash',
      [
        '--norc',
        '-c',
        `${PREFIX_LINES}
{ echo 'PORTICO_RELOAD_AT=signalled 1.0'; sleep 20; } | prefix_lines PORTICO_RELOAD:`,
      ],
      {
        detached: true,
      },
    );
    try {
      const first = await new Promise<string>((resolve, reject) => {
        let out = '';
        const deadline = setTimeout(() => reject(new Error(`nothing arrived: ${out}`)), 10_000);
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('\n')) {
            clearTimeout(deadline);
            resolve(out);
          }
        });
      });
      expect(first).toBe('PORTICO_RELOAD:PORTICO_RELOAD_AT=signalled 1.0\n');
      expect(child.exitCode).toBeNull();
    } finally {
      process.kill(-child.pid!, 'SIGKILL');
    }
  });
});
