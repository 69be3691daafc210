import { describe, expect, it } from 'vitest';
import { entryFromMessage, groupByRun, mergeLogs, type TLogEntry } from './logs';

const line = (id: number, deploymentId: string | null, message = `line ${id}`): TLogEntry => ({
  id,
  deploymentId,
  level: 'info',
  message,
  text: null,
  timestamp: '2026-01-05T07:08:09.000Z',
});

describe('log lines', () => {
  it('keeps one line per id when the socket replays what was already fetched', () => {
    const stored = [line(1, 'a'), line(2, 'a')];
    const live = [line(2, 'a'), line(3, 'a'), line(1, 'a')];
    expect(mergeLogs(stored, live).map((l) => l.id)).toEqual([1, 2, 3]);
  });

  it('orders lines oldest first whatever order they arrive in', () => {
    expect(mergeLogs([line(5, 'b'), line(4, 'b')], [line(3, 'a')]).map((l) => l.id)).toEqual([
      3, 4, 5,
    ]);
  });

  it('groups consecutive lines of one deployment into a run', () => {
    const runs = groupByRun([line(1, 'a'), line(2, 'a'), line(3, 'b'), line(4, null)]);
    expect(runs.map((r) => [r.deploymentId, r.entries.map((e) => e.id)])).toEqual([
      ['a', [1, 2]],
      ['b', [3]],
      [null, [4]],
    ]);
  });

  it('turns a progress message into a line', () => {
    const entry = entryFromMessage({
      type: 'deployment_progress',
      data: { id: 9, deploymentId: 'd', message: 'nginx -t ok', level: 'success', timestamp: 't' },
    });
    expect(entry).toEqual({
      id: 9,
      deploymentId: 'd',
      message: 'nginx -t ok',
      text: null,
      level: 'success',
      timestamp: 't',
    });
  });
});
