import type { TLanguage } from '@portico/shared/api-error';
import type { TCertificateAction } from '@portico/shared/certificates/schemas';
import type { TDeploymentLogEntry } from '@portico/shared/proxy/api';
import type { TDeploymentRow, TProxyConfigurationRow } from '../../db/schema';
import type { TTransaction } from '../../db/transaction';
import type { TQueue } from '../../jobs/queue';
import { AppError, KeyedAppError } from '../../lib/app-error';
import type { TAuditService } from '../audit/audit.service';
import type { TProxiesRepository } from '../proxies/proxies.repository';
import type { TActor, TProxiesService } from '../proxies/proxies.service';
import { proxyErrors, refuseAdopted } from '../proxies/proxy-errors';
import type { TServerCredentials } from '../ssh-servers/server-credentials';
import type { TCertificateActionHistory } from './certificate-action-history.repository';
import { deployedTarget } from './certificate-action-job';
import { actionHold, actionLimited } from './certificate-action-limits';
import { RunUnfinishedError, type TDeploymentsRepository } from './deployments.repository';
import { type TRunLog, toLogEntry } from './run-log';

export type TDeploymentsService = ReturnType<typeof createDeploymentsService>;

type TRunScope = {
  deployments: TDeploymentsRepository;
  proxies: TProxiesRepository;
  certificateActions: TCertificateActionHistory;
};

export interface TDeploymentsServiceDeps {
  deployments: TDeploymentsRepository;
  proxies: TProxiesRepository;
  proxiesService: TProxiesService;
  runLog: TRunLog;
  audit: TAuditService;
  /** Claiming the configuration and recording its run, together or not at all. */
  transaction: TTransaction<TRunScope>;
  queue: TQueue;
  /** Whether a credential exists for the server a run goes to (its own or its saved server's). */
  credentials: Pick<TServerCredentials, 'hasCredentialFor'>;
  /** The proxy serves its own uploaded certificate (modules/certificates), which certbot never renews. */
  servesUpload?: (configurationId: string) => Promise<boolean>;
  /** The wildcard whose holder's certificate serves the proxy (issue 41), renewed with it. */
  usesWildcard?: (configurationId: string) => Promise<string | null>;
}

/** A run of another kind (a certificate action, a deployment) holds the configuration. */
const otherRunUnfinished = () =>
  new KeyedAppError('deployment_running', 409, 'errors.runUnfinished');

export function createDeploymentsService(deps: TDeploymentsServiceDeps) {
  /**
   * Records the run with the id of its job (inside the caller's transaction, so the worker
   * always finds it) and returns the job to send once the transaction is over.
   */
  async function recordRun(
    tx: { deployments: TDeploymentsRepository },
    actor: TActor,
    row: TProxyConfigurationRow,
    trigger: TDeploymentRow['trigger'],
    language: TLanguage,
    planFingerprint?: string,
  ) {
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
      ...(planFingerprint ? { planFingerprint } : {}),
    });
    await tx.deployments.update(deployment.id, { jobId: job.id });
    return { deployment, job };
  }

  /** The transaction, with another unfinished run (the one-per-configuration index) said so. */
  async function inTransaction<T>(work: (scope: TRunScope) => Promise<T>): Promise<T> {
    try {
      return await deps.transaction(work);
    } catch (error) {
      if (error instanceof RunUnfinishedError) throw otherRunUnfinished();
      throw error;
    }
  }

  return {
    /**
     * Queues a run: 202 at once; the configuration is `deploying` until the job ends. With a
     * plan's fingerprint (apply), the run stops before writing if the server changed since.
     */
    async start(
      actor: TActor,
      configurationId: string,
      trigger: 'deploy' | 'redeploy',
      language: TLanguage,
      options: { planFingerprint?: string } = {},
    ) {
      const row = await deps.proxiesService.load(configurationId, actor);
      refuseAdopted(row);
      if (!row.targetServer) throw proxyErrors.needsTarget();
      if (!(await deps.credentials.hasCredentialFor(row, row))) throw proxyErrors.needsPassword();
      // The status is the gate: only one request moves it to deploying. The run is recorded
      // with the id of its job in the same transaction, so the worker always finds it; another
      // unfinished run (a certificate action) rolls the claim back.
      const { claimed, deployment, job } = await inTransaction(async (tx) => {
        const claimed = await tx.proxies.updateUnlessDeploying(row.id, { status: 'deploying' });
        if (!claimed) throw proxyErrors.deploymentRunning();
        const run = await recordRun(tx, actor, row, trigger, language, options.planFingerprint);
        return { claimed, ...run };
      });
      try {
        await job.send();
      } catch (error) {
        // The queue is not in the transaction (its own connection): the claim is let go here,
        // and the run recorded without a job is told apart by the reaper.
        await deps.proxies.update(row.id, { status: row.status });
        throw error;
      }
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
      refuseAdopted(row);
      // certbot holds no certificate for an upload: renewing it is uploading the next one.
      if (await deps.servesUpload?.(row.id)) {
        throw new KeyedAppError('certificate_uploaded', 409, 'certificates.upload.noActions');
      }
      const wildcard = await deps.usesWildcard?.(row.id);
      if (wildcard) {
        throw new KeyedAppError('certificate_shared', 409, 'certificates.wildcard.noActions', {
          wildcard,
        });
      }
      if (!row.sslConfigured) throw new AppError('certificate_not_deployed', 409);
      // The action connects to the deployed server: the password must be the one entered for it.
      if (!(await deps.credentials.hasCredentialFor(row, deployedTarget(row)))) {
        throw new AppError('certificate_needs_password', 400);
      }
      if (row.status === 'deploying') throw proxyErrors.deploymentRunning();
      // Counted and recorded under the account's lock: requests that come together, on any
      // instance, are counted one after the other, and a refused one leaves nothing behind.
      const { deployment, job } = await inTransaction(async (tx) => {
        await tx.certificateActions.lockAccount(row.userId);
        const hold = await actionHold(tx.certificateActions, row, action);
        if (hold) throw actionLimited(action, hold, language);
        return recordRun(tx, actor, row, action, language);
      });
      // A send that fails leaves a queued run without a job: the reaper tells it apart.
      await job.send();
      await deps.audit.record(actor, {
        action: action === 'renew' ? 'proxy.certificate_renew' : 'proxy.certificate_test',
        targetType: 'proxy_configuration',
        targetId: row.id,
        targetOwnerId: row.userId,
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
