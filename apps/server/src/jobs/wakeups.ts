/**
 * How long a worker woken for a job counts as on its way to it: its look (one query) takes
 * milliseconds; one that found nothing (another worker took the job) is free again after this.
 */
export const ON_ITS_WAY_MS = 2000;

type TWorkerState = { id?: string; busy: boolean; wokenAt: number };

export type TWakeups = ReturnType<typeof createWakeups>;

/**
 * Which of this instance's workers to wake when a job is queued. One job needs one worker: waking
 * every idle one (ten deploy workers) made nine look for nothing, each a query (on PGlite, on the
 * main thread). So a queued job wakes one idle worker not already woken for another. When every
 * idle one was (and may have found nothing: a poll, or another instance, took its job), they all
 * look once more; when none is idle, nobody: every worker looks again as it ends a job.
 */
export function createWakeups(notify: (workerId: string) => void, now: () => number = Date.now) {
  const byQueue = new Map<string, TWorkerState[]>();
  const wake = (w: TWorkerState) => {
    if (!w.id) return;
    w.wokenAt = now();
    notify(w.id);
  };
  return {
    /** A worker of `queue`: name it once pg-boss has, and run each of its jobs in `working`. */
    worker(queue: string) {
      const w: TWorkerState = { busy: false, wokenAt: Number.NEGATIVE_INFINITY };
      byQueue.set(queue, [...(byQueue.get(queue) ?? []), w]);
      return {
        named(id: string) {
          w.id = id;
        },
        async working<T>(run: () => Promise<T>): Promise<T> {
          w.busy = true;
          try {
            return await run();
          } finally {
            w.busy = false;
            // A job queued while every worker was busy woke nobody: this one looks for it now.
            // Not on its way to any one job: the next queued may wake it.
            w.wokenAt = Number.NEGATIVE_INFINITY;
            if (w.id) notify(w.id);
          }
        },
      };
    },
    /** A job was queued on `queue`. */
    one(queue: string) {
      const at = now();
      const idle = (byQueue.get(queue) ?? []).filter((w) => w.id && !w.busy);
      const free = idle.find((w) => at - w.wokenAt >= ON_ITS_WAY_MS);
      for (const w of free ? [free] : idle) wake(w);
    },
    /** Every worker of `queue`, or of every queue, looks (jobs queued unannounced, maybe many). */
    all(queue?: string) {
      for (const [name, workers] of byQueue) {
        if (queue === undefined || queue === name) for (const w of workers) wake(w);
      }
    },
  };
}
