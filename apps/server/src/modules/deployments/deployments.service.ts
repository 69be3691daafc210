import type { TLanguage } from '@portico/shared/api-error';
import type { TDeploymentLogEntry } from '@portico/shared/proxy/api';
import type { TTransaction } from '../../db/transaction';
import type { TQueue } from '../../jobs/queue';
import type { TAuditService } from '../audit/audit.service';
import type { TProxiesRepository } from '../proxies/proxies.repository';
import type { TActor, TProxiesService } from '../proxies/proxies.service';
import { proxyErrors } from '../proxies/proxy-errors';
import { passwordBoundTo } from '../proxies/proxy-secrets';
import type { TDeploymentsRepository } from './deployments.repository';
import { type TRunLog, toLogEntry } from './run-log';

export type TDeploymentsService = ReturnType<typeof createDeploymentsService>;

export interface TDeploymentsServiceDeps {
  deployments: TDeploymentsRepository;
  proxies: TProxiesRepository;
  proxiesService: TProxiesService;
  runLog: TRunLog;
  audit: TAuditService;
  /** Claiming the configuration and recording its run, together or not at all. */
  transaction: TTransaction<{ deployments: TDeploymentsRepository; proxies: TProxiesRepository }>;
  queue: TQueue;
  /** Wakes this instance's idle workers so a run starts without waiting for a poll. */
  wake: () => void;
}

export function createDeploymentsService(deps: TDeploymentsServiceDeps) {
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
      // The status is the gate: only one request moves it to deploying. The run is recorded
      // with the id of its job in the same transaction, so the worker always finds it.
      const { claimed, deployment, job } = await deps.transaction(async (tx) => {
        const claimed = await tx.proxies.updateUnlessDeploying(row.id, { status: 'deploying' });
        if (!claimed) throw proxyErrors.deploymentRunning();
        const deployment = await tx.deployments.insert({
          configurationId: row.id,
          trigger,
          requestedBy: actor.id,
          language,
        });
        const job = deps.queue.deployJob({
          deploymentId: deployment.id,
          configurationId: row.id,
          attempt: 1,
        });
        await tx.deployments.update(deployment.id, { jobId: job.id });
        return { claimed, deployment, job };
      });
      try {
        await job.send();
      } catch (error) {
        // The queue is not in the transaction (its own connection): the claim is let go here,
        // and the run recorded without a job is told apart by the reaper.
        await deps.proxies.update(row.id, { status: row.status });
        throw error;
      }
      deps.wake();
      deps.runLog.status(claimed, deployment.id);
      await deps.audit.record(actor, {
        action: trigger === 'deploy' ? 'proxy.deploy' : 'proxy.redeploy',
        targetType: 'proxy_configuration',
        targetId: row.id,
        targetOwnerId: row.userId,
        changes: [{ field: 'status', before: row.status, after: 'deploying' }],
      });
      return deployment.id;
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
