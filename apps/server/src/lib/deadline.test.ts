import { describe, expect, it } from 'vitest';
import {
  AbandonedError,
  DeadlineError,
  deadline,
  deadlineOf,
  formatLimit,
  settleWithin,
  withDeadline,
} from './deadline';

const never = () => new Promise<string>(() => {});

describe('deadline', () => {
  it('aborts with a DeadlineError naming the limit, or with its parent', async () => {
    const limit = deadline(20);
    await new Promise((r) => limit.signal.addEventListener('abort', r));
    expect(deadlineOf(limit.signal)).toEqual(new DeadlineError(20));

    const parent = new AbortController();
    const child = deadline(60_000, parent.signal);
    parent.abort();
    expect(child.signal.aborted).toBe(true);
    expect(deadlineOf(child.signal)).toBeUndefined();
    child.clear();
  });

  it('cleared, it never aborts', async () => {
    const limit = deadline(10);
    limit.clear();
    await new Promise((r) => setTimeout(r, 50));
    expect(limit.signal.aborted).toBe(false);
  });
});

describe('settleWithin', () => {
  it('settles as the work does while the signal is quiet', async () => {
    const controller = new AbortController();
    expect(await settleWithin(Promise.resolve('done'), controller.signal, 10)).toBe('done');
    await expect(
      settleWithin(Promise.reject(new Error('boom')), controller.signal, 10),
    ).rejects.toThrow('boom');
  });

  it('gives up on work that ignores the abort, a grace later', async () => {
    const controller = new AbortController();
    const waiting = settleWithin(never(), controller.signal, 20);
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(AbandonedError);
  });

  it('keeps the result of work that stops within the grace', async () => {
    const controller = new AbortController();
    const work = new Promise<string>((resolve) =>
      controller.signal.addEventListener('abort', () => setTimeout(() => resolve('stopped'), 5)),
    );
    const waiting = settleWithin(work, controller.signal, 1000);
    controller.abort();
    expect(await waiting).toBe('stopped');
  });
});

describe('withDeadline', () => {
  it('hands the work a signal that aborts at the limit, and answers for work that never ends', async () => {
    let seen: AbortSignal | undefined;
    const result = await withDeadline(
      { ms: 20, graceMs: 20 },
      (signal) => {
        seen = signal;
        return never();
      },
      () => 'abandoned',
    );
    expect(result).toBe('abandoned');
    expect(deadlineOf(seen)?.ms).toBe(20);
  });

  it('prints limits as both languages read them', () => {
    expect(formatLimit(20 * 60_000)).toBe('20 min');
    expect(formatLimit(1500)).toBe('2 s');
  });
});
