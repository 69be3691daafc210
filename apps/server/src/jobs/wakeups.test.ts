import { describe, expect, it } from 'vitest';
import { createWakeups, ON_ITS_WAY_MS } from './wakeups';

function setup(count: number) {
  let clock = 1_000_000;
  const notified: string[] = [];
  const wakeups = createWakeups(
    (id) => notified.push(id),
    () => clock,
  );
  const workers = Array.from({ length: count }, (_, i) => {
    const w = wakeups.worker('deploy');
    w.named(`w${i}`);
    return w;
  });
  return {
    wakeups,
    workers,
    notified,
    later: (ms: number) => {
      clock += ms;
    },
    take: () => notified.splice(0),
  };
}

describe('which workers a queued job wakes', () => {
  it('one idle worker per job, each job another, while they are on their way', () => {
    const { wakeups, take } = setup(3);
    wakeups.one('deploy');
    wakeups.one('deploy');
    expect(take()).toEqual(['w0', 'w1']);
    wakeups.one('other-queue');
    expect(take()).toEqual([]);
  });

  it('when every idle worker is on its way, all of them look once more; after a while one is free again', () => {
    const { wakeups, take, later } = setup(2);
    wakeups.one('deploy');
    wakeups.one('deploy');
    take();
    // Both may have found nothing (a poll or another instance took their jobs): both look again.
    wakeups.one('deploy');
    expect(take()).toEqual(['w0', 'w1']);
    later(ON_ITS_WAY_MS);
    wakeups.one('deploy');
    expect(take()).toEqual(['w0']);
  });

  it('a busy worker is never woken for a job; it looks again as it ends one, free for the next', async () => {
    const { wakeups, workers, take } = setup(2);
    let finish = () => {};
    const running = workers[0]!.working(
      () =>
        new Promise<void>((resolve) => {
          finish = resolve;
        }),
    );
    wakeups.one('deploy');
    expect(take()).toEqual(['w1']);
    // w1 on its way, w0 busy: w1 is asked again, w0 is not.
    wakeups.one('deploy');
    expect(take()).toEqual(['w1']);
    finish();
    await running;
    expect(take()).toEqual(['w0']);
    wakeups.one('deploy');
    expect(take()).toEqual(['w0']);
  });

  it('nobody when every worker is busy; a failed job still ends with a look', async () => {
    const { wakeups, workers, take } = setup(1);
    let fail = (_e: Error) => {};
    const running = workers[0]!.working(
      () =>
        new Promise<void>((_resolve, reject) => {
          fail = reject;
        }),
    );
    wakeups.one('deploy');
    expect(take()).toEqual([]);
    fail(new Error('run failed'));
    await expect(running).rejects.toThrow('run failed');
    expect(take()).toEqual(['w0']);
  });

  it('all: every worker of a queue, or of every queue; an unnamed worker is skipped', () => {
    const { wakeups, take } = setup(2);
    const other = wakeups.worker('probe');
    other.named('p0');
    wakeups.worker('probe');
    wakeups.all('deploy');
    expect(take()).toEqual(['w0', 'w1']);
    wakeups.all();
    expect(take()).toEqual(['w0', 'w1', 'p0']);
  });
});
