import type { TLanguage } from '@portico/shared/api-error';
import { renderText } from '@portico/shared/i18n/text';
import type { TDeployPlan, TPlanInput as TPlanBody } from '@portico/shared/proxy/api';
import type {
  TDnsChallenge,
  TEngineContext,
  TEngineSettings,
  TPlanInput,
  TPlanOutcome,
  TSharedWildcard,
  TUploadedCertificate,
} from '../../deploy/engine';
import { deadlineFailure } from '../../deploy/engine';
import { KeyedAppError } from '../../lib/app-error';
import { withDeadline } from '../../lib/deadline';
import type { TActor, TProxiesService } from '../proxies/proxies.service';
import { proxyErrors } from '../proxies/proxy-errors';
import { credentialRefusalError, type TServerCredentials } from '../ssh-servers/server-credentials';
import type { TDeploymentsService } from './deployments.service';

/** A plan only reads a few files: if the server takes longer, the request says so. */
export const PLAN_DEADLINE_MS = 60_000;
const PLAN_GRACE_MS = 5_000;

export type TPlansService = ReturnType<typeof createPlansService>;

export interface TPlansServiceDeps {
  proxiesService: Pick<TProxiesService, 'load' | 'proposedChanges'>;
  credentials: Pick<TServerCredentials, 'credentialFor'>;
  deployments: Pick<TDeploymentsService, 'start'>;
  settings: () => TEngineSettings;
  planDeployment: (input: TPlanInput, ctx: TEngineContext) => Promise<TPlanOutcome>;
  /** The proxy's uploaded certificate, its key unsealed for the plan's read only; null without. */
  uploadedCertificate: (configurationId: string) => Promise<TUploadedCertificate | null>;
  /** The proxy's DNS challenge for its server (rejects when not presentable); null without. */
  dnsChallenge: (configurationId: string, serverIp: string) => Promise<TDnsChallenge | null>;
  /** The wildcard of the same server the proxy is served with; null without one. */
  sharedWildcard: (configurationId: string, serverIp: string) => Promise<TSharedWildcard | null>;
}

const planFailed = (reason: string) =>
  new KeyedAppError('plan_failed', 502, 'deployLog.plan.failed', { reason });

/**
 * "Show plan" and "Apply" (issue 39): what a deployment of the proxy would do on its server,
 * read over SSH and written nowhere; then the deployment, which stops before writing anything
 * if the files the plan read have changed since.
 */
export function createPlansService(deps: TPlansServiceDeps) {
  return {
    async plan(
      actor: TActor,
      id: string,
      body: TPlanBody,
      language: TLanguage,
    ): Promise<TDeployPlan> {
      const row = await deps.proxiesService.load(id, actor);
      const proposed = deps.proxiesService.proposedChanges(row, body);
      const targetServer = body.targetServer ?? proposed.targetServer ?? row.targetServer;
      if (!targetServer) throw proxyErrors.needsTarget();
      const credential = await deps.credentials.credentialFor(row, row);
      if ('refused' in credential) throw credentialRefusalError(credential.refused, 'deploy');
      const uploaded = await deps.uploadedCertificate(row.id);
      const dnsChallenge = await deps.dnsChallenge(row.id, row.serverIp).catch(() => {
        throw new KeyedAppError('plan_failed', 409, 'deployLog.job.dnsCredentialsUnusable');
      });
      const sharedWildcard = await deps.sharedWildcard(row.id, row.serverIp).catch(() => {
        throw new KeyedAppError('plan_failed', 409, 'deployLog.job.wildcardUnusable');
      });
      const outcome = await withDeadline<TPlanOutcome>(
        { ms: PLAN_DEADLINE_MS, graceMs: PLAN_GRACE_MS },
        (signal) =>
          deps.planDeployment(
            {
              domain: row.domain,
              serverIp: row.serverIp,
              sshPort: row.sshPort,
              sshUser: row.sshUser,
              auth: credential.auth,
              // The plan pins nothing: a first contact is checked again by the deployment.
              expectedFingerprint: row.hostKeyFingerprint ?? undefined,
              targetServer,
              options: proposed.options ?? row.options,
              customScript: row.customScript ?? undefined,
              ...(uploaded ? { uploadedCertificate: uploaded } : {}),
              ...(dnsChallenge ? { dnsChallenge } : {}),
              ...(sharedWildcard ? { sharedWildcard } : {}),
            },
            { settings: { ...deps.settings(), language }, log: () => {}, signal },
          ),
        () => ({
          status: 'failed',
          failure: { ...deadlineFailure('plan', PLAN_DEADLINE_MS), message: '' },
        }),
      );
      if (outcome.status === 'failed') {
        throw planFailed(renderText(language, outcome.failure.text));
      }
      return { ...outcome.plan, targetServer };
    },

    /** Deploys the proxy as saved, with the plan's fingerprint as the run's guard. */
    async apply(actor: TActor, id: string, fingerprint: string, language: TLanguage) {
      const row = await deps.proxiesService.load(id, actor);
      const trigger = row.lastDeployedAt ? 'redeploy' : 'deploy';
      return deps.deployments.start(actor, id, trigger, language, { planFingerprint: fingerprint });
    },
  };
}
