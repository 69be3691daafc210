import { describe, expect, it } from 'vitest';
import { printedWhole, stalledPart } from './nginx-stall';
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
