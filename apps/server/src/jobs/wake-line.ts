import { randomUUID } from 'node:crypto';
import type { TDatabase } from '../db/client';
import { listenOn } from './listen';

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
 * The instances on one PostgreSQL database tell each other when they queue a job
 * (LISTEN/NOTIFY), so an idle worker starts another instance's job at once instead of at its
 * next poll, and polls rarely. A notification carries the queue's name and the sender's id (an
 * instance already woke its own workers); anything else on the channel is ignored.
 */
export async function openWakeLine(
  database: TDatabase,
  onError: (error: unknown) => void,
): Promise<TWakeLine> {
  const pool = database.pool!;
  const origin = randomUUID();
  // The queue's wake-ups (jobs/queue.ts), once it has said how; nothing to wake before.
  let wake: (queue?: string) => void = () => {};
  const listening = await listenOn(database, CHANNEL, {
    onPayload(payload) {
      let said: unknown;
      try {
        said = JSON.parse(payload);
      } catch {
        return;
      }
      const { o, q } = (said ?? {}) as { o?: unknown; q?: unknown };
      if (typeof q === 'string' && o !== origin) wake(q);
    },
    onError,
    onRelisten: () => wake(),
  });
  return {
    announce(queue) {
      pool
        .query('select pg_notify($1, $2)', [CHANNEL, JSON.stringify({ o: origin, q: queue })])
        .catch(onError);
    },
    onWake(how) {
      wake = how;
    },
    close: () => listening.close(),
  };
}
