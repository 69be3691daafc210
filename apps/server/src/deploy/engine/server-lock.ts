import { settleWithin } from '../../lib/deadline';
import { StepError } from './failure';
import type { EngineLog } from './logger';
import { msg } from './messages';
import type { THeldLock, TSharedLocks } from './types';

/**
 * One run at a time per server. Two sites deployed to the same server at once would otherwise
 * trip over each other: certbot refuses a second instance, and one run's `nginx -t` would judge
 * the other run's half-written files. Runs in this process queue here in arrival order; then,
 * with `shared` (several instances on PostgreSQL), the run also takes the server's lock that
 * every instance sees.
 */
const tails = new Map<string, Promise<void>>();

/**
 * How long a run holding the lock may take to stop once its signal aborted (a stop, a deadline)
 * before the lock is given to the next run anyway: work that ignores the signal (a hung promise)
 * can then hold nothing, and its SSH connection was already closed by the abort.
 */
const LOCK_GRACE_MS = 5_000;

export async function withServerLock<T>(
  key: string,
  log: EngineLog,
  signal: AbortSignal | undefined,
  work: (signal: AbortSignal | undefined) => Promise<T>,
  shared?: TSharedLocks,
): Promise<T> {
  const previous = tails.get(key);
  let release!: () => void;
  const mine = new Promise<void>((resolve) => {
    release = resolve;
  });
  const tail = (previous ?? Promise.resolve()).then(() => mine);
  tails.set(key, tail);
  let said = false;
  const sayWaiting = () => {
    if (!said) log.info(msg('run.waitingLock', { key }));
    said = true;
  };
  let releaseShared: THeldLock | undefined;
  try {
    if (previous) {
      sayWaiting();
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => reject(cancelledWaiting());
        if (signal?.aborted) onAbort();
        signal?.addEventListener('abort', onAbort, { once: true });
        previous.then(() => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        });
      });
    }
    if (shared) {
      releaseShared = await shared.acquire(key, signal, sayWaiting).catch((error: unknown) => {
        throw signal?.aborted ? cancelledWaiting() : error;
      });
    }
    // Work stops as for a cancel if the shared lock is lost while it runs (see THeldLock).
    const held = releaseShared
      ? AbortSignal.any([releaseShared.lost, ...(signal ? [signal] : [])])
      : signal;
    return await settleWithin(work(held), held, LOCK_GRACE_MS);
  } finally {
    // Let go everywhere first: the next run in this process then finds the server free.
    await releaseShared?.().catch(() => {});
    release();
    if (tails.get(key) === tail) tails.delete(key);
  }
}

const cancelledWaiting = () => new StepError('cancelled', 'connect', msg('run.cancelledWaiting'));
