import { describe, expect, it } from 'vitest';
import { AbandonedError } from '../../lib/deadline';
import { StepError } from './failure';
import { EngineLog } from './logger';
import { withServerLock } from './server-lock';

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe('withServerLock', () => {
  it('runs work for one server one at a time, in arrival order, and says it waits', async () => {
    const events: string[] = [];
    const lines: string[] = [];
    const log = new EngineLog((_level, message) => void lines.push(message));
    const first = gate();
    const a = withServerLock('h:22', log, undefined, async () => {
      events.push('a start');
      await first.opened;
      events.push('a end');
    });
    const b = withServerLock('h:22', log, undefined, async () => {
      events.push('b');
    });
    const other = withServerLock('k:22', log, undefined, async () => {
      events.push('other');
    });
    await other;
    expect(events).toEqual(['a start', 'other']);
    first.open();
    await Promise.all([a, b]);
    expect(events).toEqual(['a start', 'other', 'a end', 'b']);
    await log.flush();
    expect(lines).toEqual(['Another deployment to h:22 is running; waiting for it to finish.']);
  });

  it('a waiter that is cancelled gives up, and the queue behind it still runs', async () => {
    const log = new EngineLog(() => undefined);
    const first = gate();
    const controller = new AbortController();
    const a = withServerLock('h:22', log, undefined, () => first.opened);
    const cancelled = withServerLock('h:22', log, controller.signal, async () => 'ran');
    const c = withServerLock('h:22', log, undefined, async () => 'c ran');
    controller.abort();
    await expect(cancelled).rejects.toBeInstanceOf(StepError);
    first.open();
    await a;
    expect(await c).toBe('c ran');
  });

  it('a failing run releases the lock', async () => {
    const log = new EngineLog(() => undefined);
    await expect(
      withServerLock('h:22', log, undefined, async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await withServerLock('h:22', log, undefined, async () => 'next')).toBe('next');
  });

  it('a run that ignores its abort lets the lock go a grace later; the next run gets it', async () => {
    const log = new EngineLog(() => undefined);
    const controller = new AbortController();
    const hung = withServerLock('h:22', log, controller.signal, () => new Promise<void>(() => {}));
    const next = withServerLock('h:22', log, undefined, async () => 'next ran');
    controller.abort();
    await expect(hung).rejects.toBeInstanceOf(AbandonedError);
    expect(await next).toBe('next ran');
  });
});
