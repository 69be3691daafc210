import type { TLanguage } from '@portico/shared/api-error';
import type { TText } from '@portico/shared/i18n/text';
import type { TLogLevel } from '@portico/shared/proxy/schemas';
import type { TProxyConfigurationRow, TStoredFailure } from '../../db/schema';
import type { TDeployOutcome } from '../../deploy/engine';
import { msg } from '../../deploy/engine/messages';
import type { TDeployJobData } from '../../jobs/queues';
import { AppError } from '../../lib/app-error';
import { snapshotOf } from '../proxies/proxy-view';
import { recordSite, toServerSite } from '../proxies/server-sites';
import {
  finishAction,
  isCertificateAction,
  runCertificateActionJob,
} from './certificate-action-job';
import {
  lineOf,
  publishStatus,
  type TDeploymentDeps,
  type TLine,
  writeLine,
} from './deployment-context';

/** The run's language as stored; rows written before the column existed read as the default. */
export function runLanguage(row: { language: string }): TLanguage {
  return row.language === 'en' ? 'en' : 'es';
}

/** Lines are written one after another, in the order the engine produced them. */
export function lineSink(deps: TDeploymentDeps, configurationId: string, deploymentId: string) {
  let chain: Promise<unknown> = Promise.resolve();
  return {
    log(level: TLogLevel, message: string, text: TText) {
      chain = chain
        .then(() => writeLine(deps, configurationId, deploymentId, level, { message, text }))
        .catch((error) => deps.log.warn({ err: error }, 'deployment log line lost'));
      return chain.then(() => undefined);
    },
    flush: () => chain,
  };
}

/** A failure as the configuration keeps it (last_failure): beside what is on the server. */
export function storedFailure(
  deploymentId: string | null,
  failure: { code: string; step: string; text: TText; message: string },
  at: Date,
): TStoredFailure {
  const { code, step, text, message } = failure;
  return { deploymentId, code, step, text, message, at: at.toISOString() };
}

async function finish(
  deps: TDeploymentDeps,
  config: TProxyConfigurationRow,
  deploymentId: string,
  outcome: TDeployOutcome,
) {
  const now = new Date();
  if (outcome.status === 'completed') {
    const updated = await deps.proxies.update(config.id, {
      status: 'completed',
      sslConfigured: true,
      nginxConfigPath: outcome.nginxConfigPath,
      certificateExpiresAt: outcome.certificateExpiresAt,
      lastDeployedAt: now,
      deployedSnapshot: snapshotOf(config),
      hostKeyFingerprint: config.hostKeyFingerprint ?? outcome.hostKeyFingerprint,
      lastFailure: null,
    });
    await deps.deployments.update(deploymentId, { status: 'completed', finishedAt: now });
    if (updated) publishStatus(deps, updated, deploymentId);
    await deps.certificates
      .recordRenewal(config.id, outcome.renewal)
      .catch((error) => deps.log.warn({ err: error }, 'renewal health not recorded'));
    // The certificate watch looks at the site as deployed (served certificate, redirect).
    await deps.certificates
      .queueCheck(config.id)
      .catch((error) => deps.log.warn({ err: error }, 'certificate check not queued'));
    return;
  }
  // What the run left on the server is already recorded (onSite): only the failure is added.
  const updated = await deps.proxies.update(config.id, {
    status: 'failed',
    lastFailure: storedFailure(deploymentId, outcome.failure, now),
  });
  await deps.deployments.update(deploymentId, {
    status: 'failed',
    finishedAt: now,
    errorCode: outcome.failure.code,
    errorMessage: outcome.failure.message,
    errorText: outcome.failure.text,
  });
  if (updated) publishStatus(deps, updated, deploymentId);
}

function secretFailure(error: unknown): TText {
  if (error instanceof AppError && error.code === 'deploy_needs_password') {
    return msg('job.needsPassword');
  }
  if (error instanceof AppError && error.messageKey === 'errors.secretUndecryptable') {
    return msg('job.secretUndecryptable');
  }
  return msg('job.secretUnreadable');
}

/**
 * One run of the deploy queue. A job that is not the run's current job (a stale retry after the
 * reaper re-queued it) or whose run already ended does nothing, so a job delivered twice is safe.
 */
export async function runDeployJob(
  deps: TDeploymentDeps,
  jobId: string,
  data: TDeployJobData,
  signal: AbortSignal,
): Promise<void> {
  const deployment = await deps.deployments.findById(data.deploymentId);
  if (!deployment || deployment.jobId !== jobId || deployment.status !== 'queued') return;
  await deps.liveness.hold(deployment.id);
  try {
    const config = await deps.proxies.findById(data.configurationId);
    if (!config) {
      await deps.deployments.update(deployment.id, { status: 'failed', finishedAt: new Date() });
      return;
    }
    await deps.deployments.update(deployment.id, { status: 'running', startedAt: new Date() });
    const sink = lineSink(deps, config.id, deployment.id);
    const language = runLanguage(deployment);
    const say = (text: TText): TLine => lineOf(language, text);

    const action = isCertificateAction(deployment.trigger) ? deployment.trigger : null;
    const run = { id: deployment.id, language };
    let password: string;
    try {
      if (!config.sshPasswordEnc) throw new AppError('deploy_needs_password', 400);
      password = deps.secrets.decryptPassword(config.id, config.sshPasswordEnc);
    } catch (error) {
      const line = say(secretFailure(error));
      await sink.log('error', line.message, line.text);
      const failure = { code: 'invalid_input' as const, step: 'secrets', ...line };
      if (action) await finishAction(deps, config, { ...run, action }, failure);
      else await finish(deps, config, deployment.id, { status: 'failed', failure });
      return;
    }
    if (action) {
      const job = { deployment: { ...run, action }, config, password, sink, signal };
      await runCertificateActionJob(deps, job);
      return;
    }

    // The server as this run names it: the record of what it writes there keeps it.
    const where = { serverIp: config.serverIp, sshPort: config.sshPort, sshUser: config.sshUser };
    const outcome = await deps.engine.runDeployment(
      {
        domain: config.domain,
        serverIp: config.serverIp,
        sshPort: config.sshPort,
        sshUser: config.sshUser,
        auth: { password },
        expectedFingerprint: config.hostKeyFingerprint ?? undefined,
        email: config.email,
        targetServer: config.targetServer ?? '',
        customScript: config.customScript ?? undefined,
      },
      {
        settings: { ...deps.settings(), language },
        log: sink.log,
        signal,
        onHostKey: async (fingerprint) => {
          // Trust on first use: pinned before anything runs on the server.
          if (!config.hostKeyFingerprint) {
            await deps.proxies.update(config.id, { hostKeyFingerprint: fingerprint });
            config.hostKeyFingerprint = fingerprint;
          }
        },
        onSite: async (state, fingerprint) => {
          await recordSite(deps.proxies, config.id, toServerSite(where, state, fingerprint));
        },
      },
    );
    await sink.flush();
    if (signal.aborted && outcome.status === 'failed' && outcome.failure.code === 'cancelled') {
      // Portico is shutting down: the run stays `running` without a live worker, so the reaper
      // (here at the next start, or another instance within its interval) starts it again.
      const line = say(msg('job.shuttingDown'));
      await sink.log('warning', line.message, line.text);
      await sink.flush();
      return;
    }
    await finish(deps, config, deployment.id, outcome);
  } finally {
    await deps.liveness.release(deployment.id);
  }
}
