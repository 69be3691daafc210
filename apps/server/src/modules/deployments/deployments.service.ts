import { randomUUID } from 'node:crypto';
import type { TLanguage } from '@portico/shared/api-error';
import type { TCertificateAction } from '@portico/shared/certificates/schemas';
import type { TDeploymentLogEntry } from '@portico/shared/proxy/api';
import type PgBoss from 'pg-boss';
import type { TDeploymentRow, TProxyConfigurationRow } from '../../db/schema';
import { DEPLOY_QUEUE, JOB_TIMING, type TDeployJobData } from '../../jobs/queues';
import { AppError } from '../../lib/app-error';
import type { TActor, TProxiesService } from '../proxies/proxies.service';
import { KeyedAppError, proxyErrors } from '../proxies/proxy-errors';
import { passwordBoundTo } from '../proxies/proxy-secrets';
import { deployedTarget } from './certificate-action-job';
import { publishStatus, type TDeploymentDeps, toLogEntry } from './deployment-context';
import { RunUnfinishedError } from './deployments.repository';

export type TDeploymentsService = ReturnType<typeof createDeploymentsService>;

export interface TDeploymentsServiceDeps extends TDeploymentDeps {
  boss: PgBoss;
  proxiesService: TProxiesService;
  /** Wakes this instance's idle workers so a run starts without waiting for a poll. */
  wake: () => void;
}

export async function sendDeployJob(boss: PgBoss, data: TDeployJobData & { attempt: number }) {
  const id = randomUUID();
  return {
    id,
    send: () =>
      boss.send(DEPLOY_QUEUE, data, {
        id,
        expireInSeconds: JOB_TIMING.expireInSeconds,
        retryLimit: JOB_TIMING.retryLimit,
      }),
  };
}

/** A run of another kind (a certificate action, a deployment) holds the configuration. */
const certificateActionRunning = () =>
  new KeyedAppError('deployment_running', 409, 'errors.runUnfinished');

export function createDeploymentsService(deps: TDeploymentsServiceDeps) {
  /** Records the run and sends its job; the job id is recorded before the job exists. */
  async function queueRun(
    actor: TActor,
    row: TProxyConfigurationRow,
    trigger: TDeploymentRow['trigger'],
    language: TLanguage,
  ): Promise<string> {
    const deployment = await deps.deployments.insert({
      configurationId: row.id,
      trigger,
      requestedBy: actor.id,
      language,
    });
    const job = await sendDeployJob(deps.boss, {
      deploymentId: deployment.id,
      configurationId: row.id,
      attempt: 1,
    });
    await deps.deployments.update(deployment.id, { jobId: job.id });
    await job.send();
    deps.wake();
    return deployment.id;
  }

  return {
    /** Queues a run: 202 at once; the configuration is `deploying` until the job ends. */
    async start(
      actor: TActor,
      configurationId: string,
      trigger: 'deploy' | 'redeploy',
      language: TLanguage,
    ) {
      const row = await deps.proxiesService.load(configurationId, actor);
      if (!row.targetServer) throw proxyErrors.needsTarget();
      if (!passwordBoundTo(row, row)) throw proxyErrors.needsPassword();
      // The status is the gate: only one request moves it to deploying.
      const claimed = await deps.proxies.updateUnlessDeploying(row.id, { status: 'deploying' });
      if (!claimed) throw proxyErrors.deploymentRunning();
      try {
        const id = await queueRun(actor, row, trigger, language);
        publishStatus(deps, claimed, id);
        await deps.audit.record(actor, {
          action: trigger === 'deploy' ? 'proxy.deploy' : 'proxy.redeploy',
          targetType: 'proxy_configuration',
          targetId: row.id,
          targetOwnerId: row.userId,
          changes: [{ field: 'status', before: row.status, after: 'deploying' }],
        });
        return id;
      } catch (error) {
        await deps.proxies.update(row.id, { status: row.status });
        if (error instanceof RunUnfinishedError) throw certificateActionRunning();
        throw error;
      }
    },

    /**
     * Queues "Test renewal" or "Renew now": a run like a deployment (same queue, log,
     * socket and per-server lock) that leaves the proxy's status as it is, since the site keeps
     * working throughout. One unfinished run per configuration, of any kind.
     */
    async startCertificateAction(
      actor: TActor,
      configurationId: string,
      action: TCertificateAction,
      language: TLanguage,
    ) {
      const row = await deps.proxiesService.load(configurationId, actor);
      if (!row.sslConfigured) throw new AppError('certificate_not_deployed', 409);
      // The action connects to the deployed server: the password must be the one entered for it.
      if (!passwordBoundTo(row, deployedTarget(row))) {
        throw new AppError('certificate_needs_password', 400);
      }
      if (row.status === 'deploying') throw proxyErrors.deploymentRunning();
      let id: string;
      try {
        id = await queueRun(actor, row, action, language);
      } catch (error) {
        if (error instanceof RunUnfinishedError) throw certificateActionRunning();
        throw error;
      }
      await deps.audit.record(actor, {
        action: action === 'renew' ? 'proxy.certificate_renew' : 'proxy.certificate_test',
        targetType: 'proxy_configuration',
        targetId: row.id,
        targetOwnerId: row.userId,
      });
      return id;
    },

    /** Every line, Portico's own in the reader's language, tool output verbatim. */
    async logs(
      actor: TActor,
      configurationId: string,
      language: TLanguage,
    ): Promise<TDeploymentLogEntry[]> {
      await deps.proxiesService.load(configurationId, actor);
      const rows = await deps.deployments.logsFor(configurationId);
      return rows.map((row) => toLogEntry(row, language));
    },
  };
}
