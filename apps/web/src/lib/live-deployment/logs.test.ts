import { describe, expect, it } from 'vitest';
import {
  currentRunEntries,
  groupByRun,
  localLine,
  logFileName,
  mergeLogLines,
  serverLine,
} from './logs';

const entry = (id: number, deploymentId: string | null = 'd1', message = `line ${id}`) => ({
  id,
  deploymentId,
  level: 'info' as const,
  message,
  timestamp: `2026-11-22T16:00:0${id % 10}.000Z`,
});

describe('log download', () => {
  it('names the file after the configuration', () => {
    expect(logFileName('0b6c1d2e-1111-4222-8333-444455556666')).toBe(
      'deployment-logs-0b6c1d2e-1111-4222-8333-444455556666.txt',
    );
  });
});

describe('log lines', () => {
  it('drops lines already shown (a replay or a poll repeats them) and keeps run order', () => {
    const start = localLine('start', 'info', 'Starting', '2026-11-22T16:00:00.000Z');
    let lines = mergeLogLines([start], [serverLine(entry(2)), serverLine(entry(1))]);
    lines = mergeLogLines(lines, [
      serverLine(entry(1)),
      serverLine(entry(2)),
      serverLine(entry(3)),
    ]);
    const end = localLine('end', 'success', 'Done', '2026-11-22T16:00:00.000Z');
    lines = mergeLogLines(lines, [end, serverLine(entry(4))]);
    expect(lines.map((l) => l.text ?? l.message)).toEqual([
      'Starting',
      'line 1',
      'line 2',
      'line 3',
      'line 4',
      'Done',
    ]);
  });

  it('returns the same array when nothing is new', () => {
    const lines = mergeLogLines([], [serverLine(entry(1))]);
    expect(mergeLogLines(lines, [serverLine(entry(1))])).toBe(lines);
  });

  it('keeps the given run from the polled list, else the run of the newest line', () => {
    const all = [entry(1, 'old'), entry(2, 'old'), entry(3, 'new'), entry(4, 'new')];
    expect(currentRunEntries(all, 'old').map((e) => e.id)).toEqual([1, 2]);
    expect(currentRunEntries(all, null).map((e) => e.id)).toEqual([3, 4]);
    expect(currentRunEntries([], null)).toEqual([]);
  });

  it('keeps one line per id when the socket replays what was already fetched', () => {
    const stored = [entry(1, 'a'), entry(2, 'a')].map(serverLine);
    const live = [entry(2, 'a'), entry(3, 'a'), entry(1, 'a')].map(serverLine);
    expect(mergeLogLines(stored, live).map((l) => l.id)).toEqual([1, 2, 3]);
  });

  it('orders lines oldest first whatever order they arrive in', () => {
    const merged = mergeLogLines([entry(5, 'b'), entry(4, 'b')].map(serverLine), [
      serverLine(entry(3, 'a')),
    ]);
    expect(merged.map((l) => l.id)).toEqual([3, 4, 5]);
  });

  it('groups consecutive lines of one deployment into a run', () => {
    const runs = groupByRun(
      [entry(1, 'a'), entry(2, 'a'), entry(3, 'b'), entry(4, null)].map(serverLine),
    );
    expect(runs.map((r) => [r.deploymentId, r.lines.map((e) => e.id)])).toEqual([
      ['a', [1, 2]],
      ['b', [3]],
      [null, [4]],
    ]);
  });

  it('turns a progress message into a line', () => {
    const line = serverLine({
      id: 9,
      deploymentId: 'd',
      message: 'nginx -t ok',
      level: 'success',
      timestamp: 't',
    });
    expect(line).toMatchObject({
      id: 9,
      deploymentId: 'd',
      message: 'nginx -t ok',
      text: null,
      level: 'success',
      timestamp: 't',
    });
  });
});
