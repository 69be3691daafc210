import { renderHttpSite } from '../nginx-site';
import type { TSshSession } from '../ssh';
import {
  assertEmail,
  assertIpv4,
  assertSiteDomain,
  formatTarget,
  normalizeTarget,
} from '../validate';
import { certificateStep } from './certificate';
import { connectStep } from './connect-step';
import { customScriptStep } from './custom-script';
import { reportOs } from './detect-os';
import { challengeOf, dnsCredentialsWrite, ensureDnsPlugin } from './dns-challenge';
import { StepError, toFailure } from './failure';
import { EngineLog } from './logger';
import { msg, quantity } from './messages';
import { dumpPlace } from './nginx-dump-cache';
import { ensurePackages } from './packages';
import { assertUnchangedSincePlan } from './plan-read';
import { preflight } from './preflight';
import { checkRemotePreflight, remotePreflightProbe } from './remote-preflight';
import { RenewalStepError, renewalHealthStep } from './renewal-health';
import { onServer } from './server-address';
import { checkSharedWildcard, sharedWildcardPaths } from './shared-wildcard';
import { siteBodyOf } from './site-files';
import { SiteRecord } from './site-record';
import { finalSiteStep, httpSiteStep, planSite } from './site-steps';
import type { TStepContext } from './step-context';
import type { TDeployInput, TDeployOutcome, TEngineContext } from './types';
import {
  dropUnusedUpload,
  pruneUploadedCertificates,
  uploadedFiles,
  uploadedRenewal,
  writeUploadedCertificate,
} from './uploaded-certificate';
import { verifyStep } from './verify';

/** Where the run is now: told to the caller, and a cancel seen here stops the run before it. */
function enterStep(ctx: TEngineContext, step: string): void {
  ctx.onStep?.(step);
  if (ctx.signal?.aborted) {
    throw new StepError('cancelled', step, msg('run.cancelledBefore', { step }));
  }
}

/**
 * Deploys one site in the order of docs/PRODUCT.md#engine-steps. Never throws: every failure becomes an
 * outcome with a code, the step and a message that quotes the tool's own output, and is also
 * the last line of the log.
 */
export async function runDeployment(
  input: TDeployInput,
  ctx: TEngineContext,
): Promise<TDeployOutcome> {
  const log = new EngineLog(ctx.log, ctx.settings.language);
  return onServer(input, ctx, log, (resolved, held) => deploy(resolved, held, log));
}

async function deploy(
  input: TDeployInput,
  ctx: TEngineContext,
  log: EngineLog,
): Promise<TDeployOutcome> {
  const started = Date.now();
  let step = 'validate';
  let session: TSshSession | undefined;
  let servedSite: { nginxConfigPath: string; certificateExpiresAt: Date } | undefined;
  const onAbort = () => session?.close();
  ctx.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const domain = assertSiteDomain(input.domain);
    const serverIp = assertIpv4(input.serverIp, 'serverIp');
    assertEmail(input.email);
    const target = normalizeTarget(input.targetServer, 'targetServer');
    const targetText = formatTarget(target);
    // An upload comes first; a shared wildcard's holder holds (and renews) the certificate.
    const shared = input.uploadedCertificate ? undefined : input.sharedWildcard;
    if (shared) sharedWildcardPaths(domain, shared);
    const { dns, probe, apex } = challengeOf(
      domain,
      shared ? { ...input, dnsChallenge: undefined } : input,
    );
    const body = siteBodyOf(domain, target, input.options, ctx.settings.allowCustomNginx, {
      apex,
    });
    // Options that fail the allowlist (or advanced lines this instance does not allow) stop the
    // run here, before anything touches the server.
    renderHttpSite({ domain, ...body });
    log.info(msg('run.deploying', { domain, target: targetText, serverIp }));

    step = 'connect';
    enterStep(ctx, step);
    // The remote preflight gathers every fact up to the HTTP site in the root check's round
    // trip; the steps below report them one by one as before.
    const at = dumpPlace(input, ctx.settings.dumps);
    const connected = await connectStep(input, ctx, log, remotePreflightProbe(domain, at));
    session = connected.session;
    const facts = { stdout: connected.stdout };
    if (ctx.signal?.aborted) session.close();

    step = 'detect-os';
    enterStep(ctx, step);
    log.info(msg('os.reading'));
    checkRemotePreflight(facts.stdout);
    const server = reportOs(facts.stdout, log);
    const c: TStepContext = { session, log, settings: ctx.settings, signal: ctx.signal, server };

    step = 'preflight';
    enterStep(ctx, step);
    await preflight(c, { domain: probe, serverIp }, facts);
    if (input.planFingerprint) {
      const extra = [
        ...(input.uploadedCertificate
          ? (uploadedFiles(domain, input.uploadedCertificate)?.writes ?? [])
          : []),
        ...(dns ? [dnsCredentialsWrite(dns)] : []),
      ].map((f) => f.path);
      await assertUnchangedSincePlan(c, domain, input.planFingerprint, extra);
    }

    step = 'packages';
    enterStep(ctx, step);
    const { installed } = await ensurePackages(c, facts);
    if (dns) await ensureDnsPlugin(c, dns);

    step = 'http-site';
    enterStep(ctx, step);
    const plan = await planSite(c, domain, installed ? undefined : facts, at);
    // The caller's record of what is on the server follows every write from here on.
    const site = new SiteRecord(c, domain, ctx.onSite);
    // The preflight took the first look, unless packages were installed since.
    await site.survey(installed ? undefined : facts.stdout);
    const siteFiles = {
      files: [plan.paths.file, ...(plan.paths.enabledLink ? [plan.paths.enabledLink] : [])],
    };
    // An uploaded certificate is on the server before the HTTP site step, which then writes the
    // final site naming it: its `nginx -t` is the gate, and a refused pair is put back.
    const upload = input.uploadedCertificate
      ? await writeUploadedCertificate(c, domain, input.uploadedCertificate)
      : undefined;
    // A shared wildcard is checked on the server before the site names its lineage.
    const wildcard = shared ? await checkSharedWildcard(c, domain, shared) : undefined;
    const served = upload ?? wildcard;
    if (served) Object.assign(plan, { hasCertificate: true, certificate: served.paths });
    await site
      .around(siteFiles, (look) => httpSiteStep(c, domain, body, plan, look))
      .catch(async (error: unknown) => {
        if (upload?.created) await dropUnusedUpload(c, upload.paths);
        throw error;
      });

    step = 'certificate';
    enterStep(ctx, step);
    const { kept } = served
      ? { kept: true }
      : await site.around({ certificate: true }, (look) =>
          certificateStep(c, domain, input.email, look, dns),
        );
    if (upload) {
      c.log.info(msg('uploaded.inUse', { domain, notAfter: upload.facts.notAfter.slice(0, 10) }));
    }

    step = 'https-site';
    enterStep(ctx, step);
    // The HTTP site step's reload made the files live; with the certificate kept, nothing new.
    await site.around(siteFiles, (look) => finalSiteStep(c, domain, body, plan, kept, look));
    // The site names only this upload (or certbot's certificate) now: the rest may go.
    if (upload || plan.hasUploaded) {
      // The record lists the upload the server holds: it follows the removal.
      const pruned = await pruneUploadedCertificates(c, domain, upload?.paths);
      if (pruned) await site.survey().catch(() => undefined);
    }

    if (input.customScript) {
      step = 'custom-script';
      enterStep(ctx, step);
      await customScriptStep(c, input.customScript, { domain, target: targetText });
    }

    step = 'verify';
    enterStep(ctx, step);
    const verified = await verifyStep(
      { domain: probe, serverIp, target: targetText, extraCaFile: ctx.settings.extraCaFile },
      log,
    );
    // Last: the site is verified, so a server where nothing renews fails here with it served.
    servedSite = { nginxConfigPath: plan.paths.file, certificateExpiresAt: verified.expiresAt };
    step = 'renewal';
    enterStep(ctx, step);
    // Nothing renews an upload: its owner does, reminded by the watch's expiry alerts.
    const renewal = upload ? uploadedRenewal(new Date()) : await renewalHealthStep(c);

    const seconds = quantity((Date.now() - started) / 1000, 1);
    log.success(msg('run.complete', { seconds, domain, serverIp, target: targetText }));
    await log.flush();
    return {
      status: 'completed',
      hostKeyFingerprint: session.fingerprint,
      nginxConfigPath: plan.paths.file,
      sslConfigured: true,
      certificateExpiresAt: verified.expiresAt,
      renewal,
      warnings: verified.warnings,
      ...(served ? { onServer: served.facts } : {}),
    };
  } catch (error) {
    const failure = toFailure(error, step, log, ctx.signal);
    log.error(failure.text);
    await log.flush();
    return {
      status: 'failed',
      ...(session ? { hostKeyFingerprint: session.fingerprint } : {}),
      ...(servedSite && error instanceof RenewalStepError
        ? { served: { ...servedSite, renewal: error.health } }
        : {}),
      failure,
    };
  } finally {
    ctx.signal?.removeEventListener('abort', onAbort);
    session?.close();
  }
}
