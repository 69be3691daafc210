import type { TLanguage } from '@portico/shared/api-error';
import {
  CERTIFICATE_ACTIONS,
  type TCertificateAction,
  type TCertificateFacts,
} from '@portico/shared/certificates/schemas';
import type { TText } from '@portico/shared/i18n/text';
import type { TLogLevel } from '@portico/shared/proxy/schemas';
import type { TProxyConfigurationRow } from '../../db/schema';
import type { TCertificateActionOutcome, TDeployFailure, TSshAuth } from '../../deploy/engine';
import { msg } from '../../deploy/engine';
import type { TDeployJobDeps } from './deploy-job-deps';
import type { TLineSink } from './line-sink';
import { lineOf } from './run-log';

export function isCertificateAction(trigger: string): trigger is TCertificateAction {
  return (CERTIFICATE_ACTIONS as readonly string[]).includes(trigger);
}

export interface TActionRun {
  id: string;
  action: TCertificateAction;
  language: TLanguage;
}

/** A line of Portico's own, its words in the run's language. */
function write(sink: TLineSink, lang: TLanguage, level: TLogLevel, text: TText): Promise<void> {
  const line = lineOf(lang, text);
  return sink.log(level, line.message, line.text);
}

function verifyFailure(lang: TLanguage, text: TText): TDeployFailure {
  return { code: 'verification_failed', step: 'verify', ...lineOf(lang, text) };
}

/** The server and domain the certificate lives on: those of the last deployment. */
export function deployedTarget(config: TProxyConfigurationRow) {
  const deployed = config.deployedSnapshot;
  return {
    domain: deployed?.domain ?? config.domain,
    serverIp: deployed?.serverIp ?? config.serverIp,
    sshPort: deployed?.sshPort ?? config.sshPort,
    sshUser: deployed?.sshUser ?? config.sshUser,
  };
}

/**
 * Ends an action's run. The proxy's status is left as it was (the site kept working); the
 * status message still goes out, so the screens following the run read everything again.
 */
export async function finishAction(
  deps: TDeployJobDeps,
  config: TProxyConfigurationRow,
  run: TActionRun,
  failure?: TDeployFailure,
): Promise<void> {
  await deps.deployments.update(run.id, {
    status: failure ? 'failed' : 'completed',
    finishedAt: new Date(),
    ...(failure
      ? { errorCode: failure.code, errorMessage: failure.message, errorText: failure.text }
      : {}),
  });
  const current = (await deps.proxies.findById(config.id)) ?? config;
  deps.runLog.status(current, run.id);
  // nginx serving the old certificate is alerted by the check itself (notReloaded).
  if (failure && run.action === 'renew' && failure.step !== 'verify') {
    await deps.certificates.renewalFailed(config, failure.text);
  }
}

/**
 * After "Renew now": the live check of the watch, from Portico, says whether the site serves
 * the certificate certbot just made. Returns the failure when it does not.
 */
async function checkServed(
  deps: TDeployJobDeps,
  config: TProxyConfigurationRow,
  renewed: TCertificateFacts | null,
  sink: TLineSink,
  lang: TLanguage,
): Promise<TDeployFailure | undefined> {
  const { domain } = deployedTarget(config);
  await write(sink, lang, 'info', msg('certCheck.checking', { domain }));
  const row = await deps.certificates.checkNow(config.id);
  const check = row?.lastCheck;
  if (!row?.served || !check?.ok) {
    const reason: TText = check?.problem ?? '';
    return verifyFailure(lang, msg('certCheck.failed', { domain, reason }));
  }
  if (renewed && row.served.fingerprint !== renewed.fingerprint) {
    return verifyFailure(
      lang,
      msg('certCheck.servesOld', {
        domain,
        served: row.served.fingerprint,
        notAfter: { date: row.served.notAfter },
        renewed: renewed.fingerprint,
      }),
    );
  }
  await write(
    sink,
    lang,
    'success',
    msg('certCheck.servesNew', {
      domain,
      fingerprint: row.served.fingerprint,
      notAfter: { date: row.served.notAfter },
    }),
  );
  return undefined;
}

/** "Test renewal" / "Renew now" as a run of the deploy queue (runDeployJob hands it over). */
export async function runCertificateActionJob(
  deps: TDeployJobDeps,
  job: {
    deployment: TActionRun;
    config: TProxyConfigurationRow;
    auth: TSshAuth;
    sink: TLineSink;
    signal: AbortSignal;
    /** Runs the engine under the run's deadline (deploy-job's, shared with deployments). */
    bounded: (
      work: (runSignal: AbortSignal) => Promise<TCertificateActionOutcome>,
    ) => Promise<TCertificateActionOutcome>;
  },
): Promise<void> {
  const { deployment: run, config, sink, signal } = job;
  const outcome = await job.bounded((runSignal) =>
    deps.runCertificateAction(
      {
        ...deployedTarget(config),
        auth: job.auth,
        expectedFingerprint: config.hostKeyFingerprint ?? undefined,
        action: run.action,
      },
      {
        settings: { ...deps.settings(), language: run.language },
        log: sink.say,
        signal: runSignal,
      },
    ),
  );
  await sink.flush();
  if (signal.aborted && outcome.status === 'failed' && outcome.failure.code === 'cancelled') {
    // Shutting down: the reaper starts it again (here at the next start, or elsewhere).
    await write(sink, run.language, 'warning', msg('job.shuttingDown'));
    await sink.flush();
    return;
  }
  // An engine that was given up on wrote no last line: this is it.
  if (outcome.status === 'failed' && outcome.failure.step === 'abandoned') {
    await sink.log('error', outcome.failure.message, outcome.failure.text);
  }
  if (outcome.onServer) await deps.certificates.recordOnServer(config.id, outcome.onServer);
  let failure = outcome.status === 'failed' ? outcome.failure : undefined;
  if (!failure && run.action === 'renew') {
    failure = await checkServed(deps, config, outcome.onServer ?? null, sink, run.language);
    if (failure) await sink.log('error', failure.message, failure.text);
  }
  await sink.flush();
  await finishAction(deps, config, run, failure);
}
