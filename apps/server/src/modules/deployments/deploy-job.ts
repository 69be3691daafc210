import type { TLanguage } from '@portico/shared/api-error';
import type { TRenewalHealth } from '@portico/shared/certificates/schemas';
import type { TText } from '@portico/shared/i18n/text';
import type { TProxyConfigurationRow, TStoredFailure } from '../../db/schema';
import type {
  TCertificateActionOutcome,
  TDeployFailure,
  TDeployOutcome,
  TSshAuth,
} from '../../deploy/engine';
import { msg } from '../../deploy/engine';
import { JOB_TIMING, type TDeployJobData } from '../../jobs/queues';
import { formatLimit, withDeadline } from '../../lib/deadline';
import { snapshotOf } from '../proxies/proxy-view';
import { recordSite, toServerSite } from '../proxies/server-sites';
import type { TCredentialRefusal, TSshTarget } from '../ssh-servers/server-credentials';
import {
  deployedTarget,
  finishAction,
  isCertificateAction,
  runCertificateActionJob,
} from './certificate-action-job';
import type { TDeployJobDeps } from './deploy-job-deps';
import { createLineSink } from './line-sink';
import { lineOf, type TLine } from './run-log';

/** The run's language as stored; rows written before the column existed read as the default. */
export function runLanguage(row: { language: string }): TLanguage {
  return row.language === 'en' ? 'en' : 'es';
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
  deps: TDeployJobDeps,
  config: TProxyConfigurationRow,
  deploymentId: string,
  outcome: TDeployOutcome,
) {
  const now = new Date();
  // The run and the configuration end in one transaction: whoever sees the configuration
  // finished (a screen, a test, the next deploy) finds its run finished too, and a run is never
  // recorded over while its configuration still says deploying. Sockets are told after commit.
  if (outcome.status === 'completed') {
    const updated = await deps.transaction(async (tx) => {
      await tx.deployments.update(deploymentId, { status: 'completed', finishedAt: now });
      return tx.proxies.update(config.id, {
        status: 'completed',
        sslConfigured: true,
        nginxConfigPath: outcome.nginxConfigPath,
        certificateExpiresAt: outcome.certificateExpiresAt,
        lastDeployedAt: now,
        deployedSnapshot: snapshotOf(config),
        hostKeyFingerprint: config.hostKeyFingerprint ?? outcome.hostKeyFingerprint,
        lastFailure: null,
      });
    });
    if (updated) deps.runLog.status(updated, deploymentId);
    // What the server holds for the site is now the upload (certbot's, if any, is not served).
    if (outcome.onServer) {
      await deps.certificates
        .recordOnServer(config.id, outcome.onServer)
        .catch((error) => deps.log.warn({ err: error }, 'uploaded certificate not recorded'));
    }
    await watchRenewal(deps, config.id, outcome.renewal);
    return;
  }
  // What the run left on the server is already recorded (onSite): only the failure is added,
  // and, when only the renewal failed, that the site is deployed and served over HTTPS.
  const served = outcome.served;
  const updated = await deps.transaction(async (tx) => {
    await tx.deployments.update(deploymentId, {
      status: 'failed',
      finishedAt: now,
      errorCode: outcome.failure.code,
      errorMessage: outcome.failure.message,
      errorText: outcome.failure.text,
    });
    return tx.proxies.update(config.id, {
      status: 'failed',
      lastFailure: storedFailure(deploymentId, outcome.failure, now),
      ...(served
        ? {
            sslConfigured: true,
            nginxConfigPath: served.nginxConfigPath,
            certificateExpiresAt: served.certificateExpiresAt,
            lastDeployedAt: now,
            deployedSnapshot: snapshotOf(config),
            hostKeyFingerprint: config.hostKeyFingerprint ?? outcome.hostKeyFingerprint,
          }
        : {}),
    });
  });
  if (updated) deps.runLog.status(updated, deploymentId);
  // Failed at `renewal`: the site is served all the same, and nothing renews it; say both.
  if (served) await watchRenewal(deps, config.id, served.renewal);
}

/** The renewal the run found, recorded; then a live check of the site as the run left it. */
async function watchRenewal(
  deps: TDeployJobDeps,
  configurationId: string,
  renewal: TRenewalHealth,
) {
  await deps.certificates
    .recordRenewal(configurationId, renewal)
    .catch((error) => deps.log.warn({ err: error }, 'renewal health not recorded'));
  await deps.certificates
    .queueCheck(configurationId)
    .catch((error) => deps.log.warn({ err: error }, 'certificate check not queued'));
}

/** The deploy log's line for each reason the credentials service gives (server-credentials.ts). */
function refusalLine(refusal: TCredentialRefusal): TText {
  switch (refusal.reason) {
    case 'no_credential':
      return refusal.savedElsewhere
        ? msg('job.passwordForOtherServer', { target: refusal.target })
        : msg('job.needsPassword');
    case 'undecryptable':
      return msg('job.secretUndecryptable');
    case 'key_unreadable':
      return msg('job.secretUnreadable');
    case 'unusable':
      return msg('job.storedPasswordUnusable');
  }
}

/** The credential presented to `target`, or the log line saying why none is. */
async function storedCredential(
  deps: TDeployJobDeps,
  config: TProxyConfigurationRow,
  target: TSshTarget,
): Promise<TSshAuth | { refused: TText }> {
  const credential = await deps.secrets.credentialFor(config, target);
  return 'refused' in credential ? { refused: refusalLine(credential.refused) } : credential.auth;
}

/** The outcome of a run whose engine did not stop within its grace: at shutdown or deadline. */
function abandoned(
  language: TLanguage,
  shutdown: AbortSignal,
  limitMs: number,
): { status: 'failed'; failure: TDeployFailure } {
  const failure = shutdown.aborted
    ? { code: 'cancelled' as const, ...lineOf(language, msg('job.shuttingDown')) }
    : {
        code: 'timeout' as const,
        ...lineOf(language, msg('job.deadline', { limit: formatLimit(limitMs) })),
      };
  return { status: 'failed', failure: { ...failure, step: 'abandoned' } };
}

/**
 * One run of the deploy queue. A job that is not the run's current job (a stale retry after the
 * reaper re-queued it) or whose run already ended does nothing, so a job delivered twice is safe.
 */
export async function runDeployJob(
  deps: TDeployJobDeps,
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
    const sink = createLineSink(deps, config.id, deployment.id);
    const language = runLanguage(deployment);
    const say = (text: TText): TLine => lineOf(language, text);

    const action = isCertificateAction(deployment.trigger) ? deployment.trigger : null;
    const run = { id: deployment.id, language };
    // An action connects to the server of the last deployment (where the certificate is): the
    // password must have been entered for that server.
    const reached = action ? deployedTarget(config) : config;
    const auth = await storedCredential(deps, config, reached);
    // The key the server must present: its saved server's pin when the run goes there.
    config.hostKeyFingerprint =
      (await deps.secrets.hostKeyFor(config, reached, config.hostKeyFingerprint)) ?? null;
    if ('refused' in auth) {
      const line = say(auth.refused);
      await sink.log('error', line.message, line.text);
      const failure = { code: 'invalid_input' as const, step: 'secrets', ...line };
      if (action) await finishAction(deps, config, { ...run, action }, failure);
      else await finish(deps, config, deployment.id, { status: 'failed', failure });
      return;
    }
    const timing = deps.timing ?? JOB_TIMING;
    if (action) {
      // The same limit as a deployment: the worker and the server's lock are let go by then.
      const bounded = (work: (runSignal: AbortSignal) => Promise<TCertificateActionOutcome>) =>
        withDeadline<TCertificateActionOutcome>(
          { ms: timing.runDeadlineMs, graceMs: timing.abandonGraceMs, parent: signal },
          work,
          () => abandoned(language, signal, timing.runDeadlineMs),
        );
      const job = { deployment: { ...run, action }, config, auth, sink, signal, bounded };
      await runCertificateActionJob(deps, job);
      sink.close();
      return;
    }

    // A secret unsealed only for this run (never logged); one that cannot be fails the run.
    const unsealed = async <T>(read: Promise<T>, what: string, key: string) => {
      const value = await read.catch((error) => {
        deps.log.warn({ err: error }, `${what} not readable`);
        return undefined;
      });
      if (value !== undefined) return value;
      const line = say(msg(key));
      await sink.log('error', line.message, line.text);
      const failure = { code: 'invalid_input' as const, step: 'secrets', ...line };
      await finish(deps, config, deployment.id, { status: 'failed', failure });
      return undefined;
    };
    // The proxy's own certificate, its key; the DNS-01 credentials, for its own server only.
    const uploaded = await unsealed(
      deps.certificates.uploadedCertificate(config.id),
      'uploaded certificate',
      'job.uploadUndecryptable',
    );
    if (uploaded === undefined) return;
    const dnsChallenge = await unsealed(
      deps.certificates.dnsChallenge(config.id, config.serverIp),
      'DNS credentials',
      'job.dnsCredentialsUnusable',
    );
    if (dnsChallenge === undefined) return;
    // Another proxy's wildcard certificate, when it is still on this proxy's server.
    const sharedWildcard = await unsealed(
      deps.certificates.sharedWildcard(config.id, config.serverIp),
      'shared wildcard',
      'job.wildcardUnusable',
    );
    if (sharedWildcard === undefined) return;
    // The server as this run names it: the record of what it writes there keeps it.
    const where = { serverIp: config.serverIp, sshPort: config.sshPort, sshUser: config.sshUser };
    // The signal aborts at the run's deadline, or with `signal` when Portico shuts down; whatever
    // the engine does with it, the worker is let go a grace after it aborts.
    const outcome = await withDeadline<TDeployOutcome>(
      { ms: timing.runDeadlineMs, graceMs: timing.abandonGraceMs, parent: signal },
      (runSignal) =>
        deps.runDeployment(
          {
            domain: config.domain,
            serverIp: config.serverIp,
            sshPort: config.sshPort,
            sshUser: config.sshUser,
            auth,
            expectedFingerprint: config.hostKeyFingerprint ?? undefined,
            email: config.email,
            targetServer: config.targetServer ?? '',
            options: config.options,
            customScript: config.customScript ?? undefined,
            ...(uploaded ? { uploadedCertificate: uploaded } : {}),
            ...(dnsChallenge ? { dnsChallenge } : {}),
            ...(sharedWildcard ? { sharedWildcard } : {}),
            planFingerprint: data.planFingerprint,
          },
          {
            settings: { ...deps.settings(), language },
            log: sink.say,
            signal: runSignal,
            onHostKey: async (fingerprint) => {
              // Trust on first use: pinned before anything runs on the server.
              if (!config.hostKeyFingerprint) {
                await deps.proxies.update(config.id, { hostKeyFingerprint: fingerprint });
                await deps.secrets.pinFirstContact(config, where, fingerprint);
                config.hostKeyFingerprint = fingerprint;
              }
            },
            // Kept even after the run was given up on: the record says what is on the server.
            onSite: async (state, fingerprint) => {
              await recordSite(deps.proxies, config.id, toServerSite(where, state, fingerprint));
            },
          },
        ),
      () => abandoned(language, signal, timing.runDeadlineMs),
    );
    await sink.flush();
    sink.close();
    if (signal.aborted && outcome.status === 'failed' && outcome.failure.code === 'cancelled') {
      // Portico is shutting down: the run stays `running` without a live worker, so the reaper
      // (here at the next start, or another instance within its interval) starts it again.
      await deps.runLog.write(config.id, deployment.id, 'warning', say(msg('job.shuttingDown')));
      return;
    }
    // An engine that was given up on wrote no last line: this is it.
    if (outcome.status === 'failed' && outcome.failure.step === 'abandoned') {
      const { message, text } = outcome.failure;
      await deps.runLog.write(config.id, deployment.id, 'error', { message, text });
    }
    await finish(deps, config, deployment.id, outcome);
    if (outcome.status === 'completed' && config.sshServerId && deps.refreshServerFacts) {
      // After the run's end is recorded: the page already shows it done while this reads.
      await deps.refreshServerFacts(config.sshServerId, signal).catch((error: unknown) => {
        deps.log.warn({ err: error, serverId: config.sshServerId }, 'reading the facts failed');
      });
    }
  } finally {
    await deps.liveness.release(deployment.id);
  }
}
