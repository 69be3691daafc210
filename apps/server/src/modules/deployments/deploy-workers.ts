import type { TQueue } from '../../jobs/queue';
import type { TDeployJobData } from '../../jobs/queues';

/**
 * This instance's deploy workers: `count` runs at once (0 makes an instance that only serves
 * the API). `stop` aborts the running engines, which stop at their next step and leave the run
 * for the next start; a run whose engine does not stop is let go within its grace (deploy-job).
 */
export function createDeployWorkers(deps: {
  queue: TQueue;
  count: number;
  run: (jobId: string, data: TDeployJobData, signal: AbortSignal) => Promise<void>;
}) {
  const abort = new AbortController();
  const running = new Set<Promise<void>>();
  return {
    async start() {
      for (let i = 0; i < deps.count; i += 1) {
        await deps.queue.workDeploys(async (jobId, data) => {
          const run = deps.run(jobId, data, abort.signal);
          running.add(run);
          try {
            await run;
          } finally {
            running.delete(run);
          }
        });
      }
    },
    async stop() {
      abort.abort();
      await Promise.allSettled([...running]);
    },
  };
}
