import { dedicatedClient, type TDatabase, type TPgClient } from '../db/client';
import { LOCK_LOST, type THeldLock, type TSharedLocks } from '../deploy/engine';

/** How often a run waiting on a lock held by another instance asks again. */
const POLL_MS = 500;
/** How long letting go may take before the connection (and with it the lock) is dropped. */
const RELEASE_MS = 5_000;

const LOCK = 'pg_try_advisory_lock(hashtextextended($1, 0))';
const UNLOCK = 'pg_advisory_unlock(hashtextextended($1, 0))';

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }
    function onAbort() {
      clearTimeout(timer);
      reject(signal?.reason);
    }
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function bounded(work: Promise<unknown>, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref();
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    work.then(done, done);
  });
}

/**
 * Locks every instance on one PostgreSQL sees (the per-server deployment lock): a session
 * advisory lock, each held on a connection of its own, so PostgreSQL lets go of it when the
 * instance dies (its connections close) and letting one go cannot touch another. On PGlite
 * there is one process, and no shared locks are needed (undefined).
 */
export function createSharedLocks(database: TDatabase): TSharedLocks | undefined {
  if (database.kind === 'pglite') return undefined;
  return {
    async acquire(name, signal, onWait) {
      const key = `portico-server:${name}`;
      const client: TPgClient = dedicatedClient(database);
      client.on('error', () => {});
      const drop = () => bounded(client.end(), RELEASE_MS);
      try {
        await client.connect();
        for (;;) {
          const taken = await client.query<{ taken: boolean }>(`select ${LOCK} as taken`, [key]);
          if (taken.rows[0]?.taken) break;
          onWait();
          await pause(POLL_MS, signal);
        }
      } catch (error) {
        await drop();
        throw error;
      }
      // The lock lives as long as its connection: if that drops (the database restarted, the
      // network failed, an administrator ended it), another instance may take the server now.
      const lost = new AbortController();
      let released = false;
      const onLost = () => {
        if (!released) lost.abort(LOCK_LOST);
      };
      client.on('error', onLost);
      client.on('end', onLost);
      const release = async () => {
        released = true;
        // Unlocked first (the next run may take it at once), then the connection closed; a
        // connection that does not answer is dropped, which lets the lock go just the same.
        await bounded(client.query(`select ${UNLOCK}`, [key]), RELEASE_MS);
        await drop();
      };
      return Object.assign(release, { lost: lost.signal }) satisfies THeldLock;
    },
  };
}
