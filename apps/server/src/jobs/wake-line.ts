import type { TDatabase } from '../db/client';
import { openChannel } from './channel';

const CHANNEL = 'portico_jobs';

export interface TWakeLine {
  /** Tells the other instances on the database that a job was queued on `queue`. */
  announce(queue: string): void;
  /**
   * `wake(queue)` runs when another instance queued a job on `queue`; `wake()` (every queue)
   * when the line listens again after a loss, since what was announced meanwhile never arrived.
   * One queue wraps one line: a second call replaces the first.
   */
  onWake(wake: (queue?: string) => void): void;
  close(): Promise<void>;
}

/**
 * The instances on one PostgreSQL database tell each other when they queue a job (a channel,
 * jobs/channel.ts), so an idle worker starts another instance's job at once instead of at its
 * next poll, and polls rarely. A message names the queue (`q`); an instance already woke its
 * own workers, and hears only the others.
 */
export async function openWakeLine(
  database: TDatabase,
  onError: (error: unknown) => void,
): Promise<TWakeLine> {
  // The queue's wake-ups (jobs/queue.ts), once it has said how; nothing to wake before.
  let wake: (queue?: string) => void = () => {};
  const channel = await openChannel(database, CHANNEL, {
    onMessage({ q }) {
      if (typeof q === 'string') wake(q);
    },
    onError,
    onRelisten: () => wake(),
  });
  return {
    announce(queue) {
      channel.say({ q: queue }).catch(onError);
    },
    onWake(how) {
      wake = how;
    },
    close: () => channel.close(),
  };
}
