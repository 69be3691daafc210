import { DEFAULT_LANGUAGE } from '@portico/shared/api-error';
import type { TDeploymentRow } from '../../db/schema';
import { msg } from '../../deploy/engine';
import type { TDeployJobInfo, TQueue } from '../../jobs/queue';
import { JOB_TIMING } from '../../jobs/queues';
import type { TWorkerLiveness } from '../../jobs/worker-liveness';
import type { TProxiesRepository } from '../proxies/proxies.repository';
import { isCertificateAction } from './certificate-action-job';
import { runLanguage, storedFailure } from './deploy-job';
import type { TDeploymentsRepository } from './deployments.repository';
import { lineOf, type TRunLog } from './run-log';

// A queued run whose job is missing may be between its insert and its send: leave it a moment.
const GRACE_MS = 30_000;

/** What the reaper needs: the runs, their configurations, the queue and who works what. */
export interface TReaperDeps {
  deployments: TDeploymentsRepository;
  proxies: TProxiesRepository;
  runLog: TRunLog;
  liveness: TWorkerLiveness;
  queue: TQueue;
  log: { info(msg: string): void };
}

type TJobInfo = TDeployJobInfo | null;

async function isDead(deps: TReaperDeps, row: TDeploymentRow, job: TJobInfo) {
  const old = Date.now() - row.createdAt.getTime() > GRACE_MS;
  if (row.status === 'running') return !(await deps.liveness.isAlive(row.id));
  // queued
  if (!job) return old;
  if (job.state === 'created' || job.state === 'retry') return false;
  if (job.state === 'active') {
    // Fetched but not started yet, or its worker died before marking the run.
    return old && !(await deps.liveness.isAlive(row.id));
  }
  return true;
}

/**
 * Finds runs whose worker died (the process was killed, the machine rebooted) and either starts
 * them again once or records them failed, each time with a log line saying what happened. Runs
 * at start-up and then periodically, so nothing stays `deploying` for long.
 */
export async function reapDeployments(deps: TReaperDeps): Promise<number> {
  let reaped = 0;
  for (const row of await deps.deployments.unfinished()) {
    const job = row.jobId ? await deps.queue.deployJobInfo(row.jobId) : null;
    if (!(await isDead(deps, row, job))) continue;
    const attempt = job?.data.attempt ?? 1;
    if (row.jobId && job?.state === 'active') {
      await deps.queue.failDeployJob(row.jobId, 'worker died');
    }
    const config = await deps.proxies.findById(row.configurationId);
    if (!config) continue;
    // Each change below holds only while the run is as read above: its worker may have ended it
    // since (a run that failed on its deadline was once put back in the queue so).
    if (attempt < 2) {
      const next = deps.queue.deployJob({
        deploymentId: row.id,
        configurationId: row.configurationId,
        attempt: attempt + 1,
      });
      if (!(await deps.deployments.updateIfStill(row, { status: 'queued', jobId: next.id }))) {
        continue;
      }
      reaped += 1;
      await deps.runLog.write(
        row.configurationId,
        row.id,
        'warning',
        lineOf(runLanguage(row), msg('job.interruptedRetry')),
      );
      await next.send();
      deps.log.info(`deployment ${row.id} interrupted; queued again`);
      continue;
    }
    const line = lineOf(runLanguage(row), msg('job.interruptedFailed'));
    const now = new Date();
    const failed = await deps.deployments.updateIfStill(row, {
      status: 'failed',
      finishedAt: now,
      errorCode: 'interrupted',
      errorMessage: line.message,
      errorText: line.text,
    });
    if (!failed) continue;
    reaped += 1;
    await deps.runLog.write(row.configurationId, row.id, 'error', line);
    // A certificate action never changed the proxy's status; a deployment leaves it failed.
    // What the cut runs wrote is in the record already (announced before each write).
    const updated = isCertificateAction(row.trigger)
      ? config
      : await deps.proxies.update(row.configurationId, {
          status: 'failed',
          lastFailure: storedFailure(row.id, { code: 'interrupted', step: 'job', ...line }, now),
        });
    if (updated) deps.runLog.status(updated, row.id);
    deps.log.info(`deployment ${row.id} interrupted twice; recorded failed`);
  }
  // Claimed (deploying) by a request that died before it recorded its run: nothing ran.
  for (const config of await deps.proxies.deployingWithoutRun(new Date(Date.now() - GRACE_MS))) {
    reaped += 1;
    // The language of the owner's last run; the default for a configuration never deployed.
    const last = await deps.deployments.latestFor(config.id);
    const line = lineOf(last ? runLanguage(last) : DEFAULT_LANGUAGE, msg('job.neverStarted'));
    await deps.runLog.write(config.id, null, 'error', line);
    const updated = await deps.proxies.update(config.id, {
      status: 'failed',
      lastFailure: storedFailure(null, { code: 'interrupted', step: 'job', ...line }, new Date()),
    });
    if (updated) deps.runLog.status(updated, null);
    deps.log.info(`configuration ${config.id} was left deploying without a run; recorded failed`);
  }
  return reaped;
}

/** The reaper's schedule as the scheduled-runs slots know it. */
export const REAPER_JOB = 'deployment-reaper';

/**
 * Reaps now (`runNow`, at start-up) and then every JOB_TIMING.reaperIntervalMs until `stop`.
 * With `claim` (several instances on PostgreSQL) each interval's reap runs on the one instance
 * that claims it (`tick`); a starting instance still looks once for itself.
 */
export function scheduleReaper(
  deps: TReaperDeps,
  onError: (error: unknown) => void,
  claim?: (name: string, periodMs: number) => Promise<boolean>,
) {
  const runNow = () => reapDeployments(deps).then(() => undefined, onError);
  const tick = async () => {
    const mine = claim ? await claim(REAPER_JOB, JOB_TIMING.reaperIntervalMs).catch(onError) : true;
    if (mine) await runNow();
  };
  const timer = setInterval(tick, JOB_TIMING.reaperIntervalMs);
  timer.unref();
  return { runNow, tick, stop: () => clearInterval(timer) };
}
