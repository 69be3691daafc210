/**
 * Deadlines that hold without the cooperation of the work they bound. Remote work (a deployment,
 * a removal) is asked to stop through an AbortSignal; `settleWithin` then makes sure that whatever
 * waits on it (the per-server lock, a queue worker, a request) is let go a short grace later even
 * if the work never settles, so nothing can be held past a deadline.
 */

/** The reason a deadline signal aborts with: how long the work was allowed. */
export class DeadlineError extends Error {
  constructor(readonly ms: number) {
    super(`The time limit of ${ms} ms was reached.`);
    this.name = 'DeadlineError';
  }
}

/** Thrown by settleWithin when the work did not settle within its grace after the abort. */
export class AbandonedError extends Error {
  constructor(readonly graceMs: number) {
    super(`The work did not stop within ${graceMs} ms of being asked to.`);
    this.name = 'AbandonedError';
  }
}

export interface TDeadline {
  signal: AbortSignal;
  /** Stops the clock (the work ended); the signal then never aborts by this deadline. */
  clear(): void;
}

/**
 * A signal that aborts after `ms` with a DeadlineError as its reason, or when `parent` aborts
 * (with the parent's reason). The clock does not keep the process alive.
 */
export function deadline(ms: number, parent?: AbortSignal): TDeadline {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DeadlineError(ms)), ms);
  timer.unref();
  const onParent = () => controller.abort(parent?.reason);
  if (parent?.aborted) onParent();
  else parent?.addEventListener('abort', onParent, { once: true });
  return {
    signal: controller.signal,
    clear: () => {
      clearTimeout(timer);
      parent?.removeEventListener('abort', onParent);
    },
  };
}

/** The DeadlineError a signal aborted with, if that is why it aborted. */
export function deadlineOf(signal: AbortSignal | undefined): DeadlineError | undefined {
  return signal?.aborted && signal.reason instanceof DeadlineError ? signal.reason : undefined;
}

/**
 * Settles as `work` does, unless `signal` aborts and `work` has still not settled `graceMs`
 * later: then rejects with an AbandonedError and stops waiting for it.
 */
export function settleWithin<T>(
  work: Promise<T>,
  signal: AbortSignal | undefined,
  graceMs: number,
): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const onAbort = () => {
      timer = setTimeout(() => reject(new AbandonedError(graceMs)), graceMs);
    };
    const finish = () => {
      signal.removeEventListener('abort', onAbort);
      if (timer) clearTimeout(timer);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        finish();
        resolve(value);
      },
      (error: unknown) => {
        finish();
        reject(error);
      },
    );
  });
}

/**
 * Runs `work` with a signal that aborts after `ms` (or when `parent` aborts), and settles as the
 * work does, or with `abandoned()` when the work has not settled `graceMs` after the abort.
 */
export async function withDeadline<T>(
  limits: { ms: number; graceMs: number; parent?: AbortSignal },
  work: (signal: AbortSignal) => Promise<T>,
  abandoned: () => T,
): Promise<T> {
  const limit = deadline(limits.ms, limits.parent);
  try {
    return await settleWithin(work(limit.signal), limit.signal, limits.graceMs);
  } catch (error) {
    if (error instanceof AbandonedError) return abandoned();
    throw error;
  } finally {
    limit.clear();
  }
}

/** "20 min" or "90 s": a duration both catalogs print as it is. */
export function formatLimit(ms: number): string {
  return ms >= 60_000 && ms % 60_000 === 0 ? `${ms / 60_000} min` : `${Math.ceil(ms / 1000)} s`;
}
