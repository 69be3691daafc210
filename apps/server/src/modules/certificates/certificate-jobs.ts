import type PgBoss from 'pg-boss';
import { sweep, type TWatchDeps, watchOne } from './certificate-watch';

/** Every site serving HTTPS, every 6 hours (at 00, 06, 12 and 18 UTC). */
export const CERTIFICATE_SWEEP_QUEUE = 'certificate-watch';
export const CERTIFICATE_SWEEP_CRON = '0 */6 * * *';
/** One site, on demand ("Check now", after a deployment). */
export const CERTIFICATE_CHECK_QUEUE = 'certificate-check';

/**
 * The recurring sweep and the on-demand check on pg-boss. Several instances may all register:
 * the schedule is one row shared by all, and the sweep's `stately` queue keeps at most one queued
 * and one running. A sweep is bounded by the checks' own deadlines (each site at most ~32 s, a
 * few at a time); its expiry is only the backstop.
 */
export async function registerCertificateJobs(
  boss: PgBoss,
  deps: TWatchDeps,
  options: { work: boolean },
): Promise<{ queueCheck: (configurationId: string) => Promise<void> }> {
  await boss.createQueue(CERTIFICATE_SWEEP_QUEUE, {
    name: CERTIFICATE_SWEEP_QUEUE,
    policy: 'stately',
    expireInSeconds: 3 * 60 * 60,
    retryLimit: 0,
  });
  await boss.createQueue(CERTIFICATE_CHECK_QUEUE, {
    name: CERTIFICATE_CHECK_QUEUE,
    policy: 'standard',
    expireInSeconds: 5 * 60,
    retryLimit: 0,
  });
  await boss.schedule(CERTIFICATE_SWEEP_QUEUE, CERTIFICATE_SWEEP_CRON, {}, { tz: 'UTC' });
  let checkWorker: string | undefined;
  if (options.work) {
    await boss.work(CERTIFICATE_SWEEP_QUEUE, async () => {
      await sweep(deps);
    });
    checkWorker = await boss.work<{ configurationId: string }>(
      CERTIFICATE_CHECK_QUEUE,
      { batchSize: 1, pollingIntervalSeconds: 1 },
      async ([job]) => {
        if (!job) return;
        const [watched] = await deps.certificates.watched(job.data.configurationId);
        if (watched) await watchOne(deps, watched);
      },
    );
  }
  return {
    async queueCheck(configurationId) {
      await boss.send(CERTIFICATE_CHECK_QUEUE, { configurationId });
      if (checkWorker) boss.notifyWorker(checkWorker);
    },
  };
}
