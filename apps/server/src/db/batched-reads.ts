import { DeadlineError } from '../lib/deadline';

/**
 * Reads by key, many keys in one query: the keys asked for while no read is free to start wait
 * together, and go as one query when one is. Under load this turns a query per request (the
 * session read of every signed-in request) into a query per batch, and the database's cost per
 * query (a round trip, a plan's execution, a backend's wake-up) is paid once for the batch.
 *
 * A key is only ever answered by a query that started after it was asked for: a batch already
 * under way takes no new keys. So a read is never older than its request, exactly as with one
 * query each: a session ended, or an account demoted, before the request came is seen ended.
 */
export interface TBatchedReadsOptions {
  /**
   * Batches under way at once (default 1: while one is at the database the next one grows; two
   * gave a tenth fewer requests a second under the 200-session load, `npm run bench -- load`).
   */
  inFlight?: number;
  /** Keys in one query at most (default 256). */
  maxKeys?: number;
  /**
   * How long a query may take before its requests fail with a DeadlineError (default 15 s): a
   * query that never answers (a connection gone silent) must not hold every request behind it.
   * The slot is freed then; a late answer is dropped.
   */
  timeoutMs?: number;
}

interface TWaiter<V> {
  resolve(value: V | undefined): void;
  reject(error: unknown): void;
}

export function batchedReads<K, V>(
  read: (keys: K[]) => Promise<Map<K, V>>,
  options: TBatchedReadsOptions = {},
): (key: K) => Promise<V | undefined> {
  const maxInFlight = options.inFlight ?? 1;
  const maxKeys = options.maxKeys ?? 256;
  const timeoutMs = options.timeoutMs ?? 15_000;
  let waiting = new Map<K, TWaiter<V>[]>();
  let inFlight = 0;
  let scheduled = false;

  function take(): Map<K, TWaiter<V>[]> {
    if (waiting.size <= maxKeys) {
      const all = waiting;
      waiting = new Map();
      return all;
    }
    const some = new Map<K, TWaiter<V>[]>();
    for (const [key, waiters] of waiting) {
      if (some.size === maxKeys) break;
      some.set(key, waiters);
      waiting.delete(key);
    }
    return some;
  }

  function start() {
    scheduled = false;
    while (waiting.size > 0 && inFlight < maxInFlight) {
      const batch = take();
      inFlight += 1;
      let answer: Promise<Map<K, V>>;
      try {
        answer = read([...batch.keys()]);
      } catch (error) {
        answer = Promise.reject(error);
      }
      let settled = false;
      const settle = (deliver: (waiter: TWaiter<V>, key: K) => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        for (const [key, waiters] of batch) for (const w of waiters) deliver(w, key);
        finished();
      };
      const timer = setTimeout(
        () => settle((w) => w.reject(new DeadlineError(timeoutMs))),
        timeoutMs,
      );
      timer.unref();
      answer.then(
        (found) => settle((w, key) => w.resolve(found.get(key))),
        (error) => settle((w) => w.reject(error)),
      );
    }
  }

  function finished() {
    inFlight -= 1;
    schedule();
  }

  // At the end of the current turn of the event loop: the requests that arrived in it go
  // together, and the first of a quiet moment waits for nothing else.
  function schedule() {
    if (scheduled || waiting.size === 0 || inFlight >= maxInFlight) return;
    scheduled = true;
    setImmediate(start);
  }

  return (key) =>
    new Promise<V | undefined>((resolve, reject) => {
      const waiters = waiting.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else waiting.set(key, [{ resolve, reject }]);
      schedule();
    });
}

/**
 * The same reads for a repository that says whether it batches: the app's shared repositories
 * do; a transaction's (and a command's) read at once, one query a key, since they have no crowd
 * to batch and a transaction must not hold its connection (on PGlite, the one session) a turn
 * of the event loop longer for nothing.
 */
export function readsByKey<K, V>(
  read: (keys: K[]) => Promise<Map<K, V>>,
  { batched }: { batched: boolean },
): (key: K) => Promise<V | undefined> {
  if (batched) return batchedReads(read);
  return async (key) => (await read([key])).get(key);
}
