import type { TQueue } from '../../jobs/queue';
import { sweep, type TWatchDeps, watchOne } from './certificate-watch';

/** Every site serving HTTPS, every 6 hours (at 00, 06, 12 and 18 UTC). */
export const CERTIFICATE_SWEEP_QUEUE = 'certificate-watch';
export const CERTIFICATE_SWEEP_CRON = '0 */6 * * *';
/** One site, on demand ("Check now", after a deployment). */
export const CERTIFICATE_CHECK_QUEUE = 'certificate-check';

/**
 * The recurring sweep and the on-demand check on the job queue. Several instances may all
 * register: the schedule is one row shared by all, and the sweep keeps at most one queued and
 * one running. A sweep is bounded by the checks' own deadlines (each site at most ~32 s, a few
 * at a time); its expiry is only the backstop.
 */
export async function registerCertificateJobs(
  queue: TQueue,
  deps: TWatchDeps,
  options: { work: boolean },
): Promise<{ queueCheck: (configurationId: string) => Promise<void> }> {
  await queue.recurring(CERTIFICATE_SWEEP_QUEUE, CERTIFICATE_SWEEP_CRON, {
    expireInSeconds: 3 * 60 * 60,
    // The cron's period: one sweep per 6-hour slot across instances.
    periodMs: 6 * 60 * 60_000,
    work: options.work
      ? async () => {
          await sweep(deps);
        }
      : undefined,
  });
  const checks = await queue.onDemand<{ configurationId: string }>(CERTIFICATE_CHECK_QUEUE, {
    expireInSeconds: 5 * 60,
    work: options.work
      ? async ({ configurationId }) => {
          const [watched] = await deps.certificates.watched(configurationId);
          if (watched) await watchOne(deps, watched);
        }
      : undefined,
  });
  return { queueCheck: (configurationId) => checks.send({ configurationId }) };
}
