import { describe, expect, it } from 'vitest';
import { DeadlineError } from '../lib/deadline';
import { batchedReads, readsByKey } from './batched-reads';

/** A read whose every call is recorded and answered when the test says. */
function controlledRead() {
  const calls: {
    keys: string[];
    answer(found: Map<string, string>): void;
    fail(e: Error): void;
  }[] = [];
  const read = (keys: string[]) =>
    new Promise<Map<string, string>>((resolve, reject) => {
      calls.push({ keys, answer: resolve, fail: reject });
    });
  return { calls, read };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('batchedReads', () => {
  it('reads the keys asked for in one turn in one query, each key once', async () => {
    const { calls, read } = controlledRead();
    const get = batchedReads(read);
    const answers = Promise.all([get('a'), get('b'), get('a'), get('c')]);
    await turn();
    expect(calls.map((c) => c.keys)).toEqual([['a', 'b', 'c']]);
    calls[0]!.answer(
      new Map([
        ['a', 'A'],
        ['c', 'C'],
      ]),
    );
    expect(await answers).toEqual(['A', undefined, 'A', 'C']);
  });

  it('never answers a key from a query that started before it was asked for', async () => {
    const { calls, read } = controlledRead();
    const get = batchedReads(read, { inFlight: 1 });
    const first = get('a');
    await turn();
    expect(calls).toHaveLength(1);
    // Asked while the first query is under way: it waits for a query of its own.
    const second = get('a');
    await turn();
    expect(calls).toHaveLength(1);
    calls[0]!.answer(new Map([['a', 'old']]));
    expect(await first).toBe('old');
    await turn();
    expect(calls).toHaveLength(2);
    calls[1]!.answer(new Map());
    expect(await second).toBeUndefined();
  });

  it('keeps at most `inFlight` queries under way and `maxKeys` keys in one', async () => {
    const { calls, read } = controlledRead();
    const get = batchedReads(read, { inFlight: 2, maxKeys: 2 });
    const answers = ['a', 'b', 'c', 'd', 'e'].map((key) => get(key));
    await turn();
    expect(calls.map((c) => c.keys)).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    calls[0]!.answer(new Map([['a', 'A']]));
    await answers[0];
    await turn();
    expect(calls.map((c) => c.keys)).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    calls[1]!.answer(new Map());
    calls[2]!.answer(new Map([['e', 'E']]));
    expect(await Promise.all(answers)).toEqual(['A', undefined, undefined, undefined, 'E']);
  });

  it('fails every request of a failed query, and reads again for the next ones', async () => {
    const { calls, read } = controlledRead();
    const get = batchedReads(read);
    const failed = [get('a'), get('b')].map((p) =>
      p.then(
        () => 'read',
        (e: Error) => e.message,
      ),
    );
    await turn();
    calls[0]!.fail(new Error('connection lost'));
    expect(await Promise.all(failed)).toEqual(['connection lost', 'connection lost']);
    const again = get('a');
    await turn();
    calls[1]!.answer(new Map([['a', 'A']]));
    expect(await again).toBe('A');
  });

  it('fails the requests of a query that never answers, and lets the next ones read', async () => {
    const { calls, read } = controlledRead();
    const get = batchedReads(read, { inFlight: 1, timeoutMs: 30 });
    const stuck = get('a');
    await turn();
    const behind = get('b');
    await expect(stuck).rejects.toBeInstanceOf(DeadlineError);
    await turn();
    // The next query went although the first never answered; its late answer is dropped.
    expect(calls.map((c) => c.keys)).toEqual([['a'], ['b']]);
    calls[0]!.answer(new Map([['a', 'late']]));
    calls[1]!.answer(new Map([['b', 'B']]));
    expect(await behind).toBe('B');
  });

  it('fails the requests of a read that throws before it returns a promise', async () => {
    const get = batchedReads<string, string>(() => {
      throw new Error('bad statement');
    });
    await expect(get('a')).rejects.toThrow('bad statement');
  });
});

describe('readsByKey', () => {
  it('batches when asked to, and otherwise reads each key at once in a query of its own', async () => {
    const direct = controlledRead();
    const getDirect = readsByKey(direct.read, { batched: false });
    const answers = Promise.all([getDirect('a'), getDirect('b')]);
    // Started in the same turn: a transaction's read does not wait for company.
    expect(direct.calls.map((c) => c.keys)).toEqual([['a'], ['b']]);
    direct.calls[0]!.answer(new Map([['a', 'A']]));
    direct.calls[1]!.answer(new Map());
    expect(await answers).toEqual(['A', undefined]);

    const batched = controlledRead();
    const getBatched = readsByKey(batched.read, { batched: true });
    const together = Promise.all([getBatched('a'), getBatched('b')]);
    expect(batched.calls).toEqual([]);
    await turn();
    expect(batched.calls.map((c) => c.keys)).toEqual([['a', 'b']]);
    batched.calls[0]!.answer(new Map([['b', 'B']]));
    expect(await together).toEqual([undefined, 'B']);
  });
});
