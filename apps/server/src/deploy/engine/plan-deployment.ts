import { sitePaths, uploadedCertificateDir } from '../site-names';
import { unifiedDiff } from '../unified-diff';
import { assertSiteDomain, normalizeTarget } from '../validate';
import { connectStep } from './connect-step';
import { reportOs } from './detect-os';
import { challengeOf, dnsCredentialsWrite } from './dns-challenge';
import { StepError, toFailure } from './failure';
import { EngineLog } from './logger';
import { msg } from './messages';
import { parseNginxStatus } from './nginx-control';
import { dumpPlace } from './nginx-dump-cache';
import { serverNamesTuning } from './nginx-tuning';
import type { TFileWrite, TSiteLink } from './nginx-writes';
import { plannedCommands, type TPlannedCommand } from './plan-commands';
import { readServerFiles, type TRemoteFile } from './plan-read';
import { checkRemotePreflight, remotePreflightProbe } from './remote-preflight';
import { onServer } from './server-address';
import { sharedWildcardPaths } from './shared-wildcard';
import { finalFiles, siteBodyOf, siteFiles } from './site-files';
import { planSite } from './site-steps';
import { marked, type TStepContext } from './step-context';
import type { TDeployFailure, TDeployInput, TEngineContext } from './types';
import { uploadedFiles } from './uploaded-certificate';

/** A plan asks for what a deployment gets, but writes nothing and needs no certificate e-mail. */
export type TPlanInput = Omit<TDeployInput, 'email'>;

export interface TPlannedFile {
  path: string;
  kind: 'file' | 'link';
  change: 'create' | 'update' | 'remove' | 'unchanged';
  /** Unified diff against what is there now ('' when unchanged or not shown). */
  diff: string;
  /** The current file is over the read limit: its diff is not shown (its hash still counts). */
  tooLarge: boolean;
  /** A file only root (and nginx) may read, such as a password file: its content is never shown. */
  private: boolean;
}

export interface TDeployPlan {
  /** What apply compares: each file's current content and the certificate's presence. */
  fingerprint: string;
  family: 'debian' | 'rhel';
  files: TPlannedFile[];
  commands: TPlannedCommand[];
  /**
   * certbot requests one, keeps the one there, or the proxy's uploaded one is served; `none`: an
   * HTTP site converted to Portico's configuration (convert-site.ts) gets none.
   */
  certificate: 'issue' | 'keep' | 'upload' | 'shared' | 'none';
  /** nginx is reloaded (step 4 always reloads once its `nginx -t` passed). */
  reload: boolean;
  /** Some file or link is created or changed. */
  changes: boolean;
}

export type TPlanOutcome =
  | { status: 'planned'; hostKeyFingerprint: string; plan: TDeployPlan }
  | { status: 'failed'; failure: TDeployFailure };

/** One file the deployment writes (or removes), against what the server holds there now. */
export function plannedFile(write: TFileWrite, now: TRemoteFile | undefined): TPlannedFile {
  const base = { path: write.path, kind: 'file' as const, private: false };
  const secret = (write.mode & 0o004) === 0;
  if (write.way === 'remove') {
    const gone = !now || now.state === 'absent';
    const diff = !secret && now?.state === 'file' ? unifiedDiff(write.path, now.content, '') : '';
    return {
      ...base,
      private: secret,
      change: gone ? 'unchanged' : 'remove',
      diff,
      tooLarge: now?.state === 'large',
    };
  }
  // Not readable by everyone on the server: said changed or not, by hash, and never shown.
  if (secret) {
    const same = now?.state === 'file' && now.content === write.content;
    const change = !now || now.state === 'absent' ? 'create' : same ? 'unchanged' : 'update';
    return { ...base, private: true, change, diff: '', tooLarge: false };
  }
  if (!now || now.state === 'absent') {
    return {
      ...base,
      change: 'create',
      diff: unifiedDiff(write.path, null, write.content),
      tooLarge: false,
    };
  }
  if (now.state === 'file') {
    const diff = unifiedDiff(write.path, now.content, write.content);
    return { ...base, change: diff ? 'update' : 'unchanged', diff, tooLarge: false };
  }
  // A link where a file goes, or a file too big to read: the engine replaces it whole.
  return { ...base, change: 'update', diff: '', tooLarge: now.state === 'large' };
}

export function plannedLink(link: TSiteLink, now: TRemoteFile | undefined): TPlannedFile {
  const base = { path: link.link, kind: 'link' as const, tooLarge: false, private: false };
  const was = now?.state === 'link' ? now.target : null;
  if (was === link.target) return { ...base, change: 'unchanged', diff: '' };
  const diff = unifiedDiff(link.link, was === null ? null : `-> ${was}\n`, `-> ${link.target}\n`);
  return { ...base, change: was === null ? 'create' : 'update', diff };
}

/**
 * What a deployment of this input would do on the server, without doing it: the same remote
 * preflight (read-only), the same decisions (layout, certificate, long-domain tuning) and the
 * same rendered files (site-files.ts) as `runDeployment`, each diffed against the file on the
 * server now; with an uploaded certificate, its chain and key (the key private: never shown)
 * and no certbot. Never writes on the server; takes no server lock (it only reads, and apply checks
 * the fingerprint before writing anything). Never throws.
 */
export async function planDeployment(
  input: TPlanInput,
  ctx: TEngineContext,
): Promise<TPlanOutcome> {
  const log = new EngineLog(ctx.log, ctx.settings.language);
  return onServer(input, ctx, log, (resolved, held) => plan(resolved, held, log), { lock: false });
}

async function plan(input: TPlanInput, ctx: TEngineContext, log: EngineLog): Promise<TPlanOutcome> {
  let step = 'validate';
  let session: TStepContext['session'] | undefined;
  try {
    const domain = assertSiteDomain(input.domain);
    const target = normalizeTarget(input.targetServer, 'targetServer');
    // As the deployment: an upload first, else a shared wildcard (no DNS-01 of its own then).
    const shared = input.uploadedCertificate ? undefined : input.sharedWildcard;
    const sharedPaths = shared ? sharedWildcardPaths(domain, shared) : undefined;
    const { dns, apex } = challengeOf(
      domain,
      shared ? { ...input, dnsChallenge: undefined } : input,
    );
    const body = siteBodyOf(domain, target, input.options, ctx.settings.allowCustomNginx, {
      apex,
    });
    step = 'connect';
    const at = dumpPlace(input, ctx.settings.dumps);
    const connected = await connectStep(input, ctx, log, remotePreflightProbe(domain, at));
    session = connected.session;
    const facts = connected.stdout;
    step = 'detect-os';
    checkRemotePreflight(facts);
    const server = reportOs(facts, log);
    const c: TStepContext = { session, log, settings: ctx.settings, signal: ctx.signal, server };
    step = 'http-site';
    const missing = marked(facts, 'PORTICO_MISSING') as ('nginx' | 'certbot')[];
    const site = await planSite(c, domain, { stdout: facts }, at);
    // Without nginx yet, the layout is the one the family's package brings (engine: read again).
    const paths = missing.includes('nginx') ? sitePaths(server.family, domain) : site.paths;
    const tuning = serverNamesTuning(c, domain, site.nginxDump);
    const upload = input.uploadedCertificate
      ? uploadedFiles(domain, input.uploadedCertificate)
      : undefined;
    if (upload === null) {
      throw new StepError('invalid_input', 'http-site', msg('uploaded.unreadable'));
    }
    // The DNS provider's credentials file is written like an upload's key: listed, never shown.
    const uploadWrites = [...(upload?.writes ?? []), ...(dns ? [dnsCredentialsWrite(dns)] : [])];
    const now = await readServerFiles(
      c,
      domain,
      step,
      uploadWrites.map((f) => f.path),
    );
    const hasCertificate = now.hasCertificate;
    const files = siteFiles({
      domain,
      body,
      ipv6: server.ipv6,
      paths,
      // The upload is served from the first site file on, as the engine writes it.
      hasCertificate: hasCertificate || Boolean(upload) || Boolean(sharedPaths),
      tuning,
      ...((upload ?? sharedPaths) ? { certificate: upload?.paths ?? sharedPaths! } : {}),
    });
    const planned = [
      ...[...uploadWrites, ...finalFiles(files)]
        // A file to remove that is not there is no part of the change.
        .filter((f) => f.way !== 'remove' || now.files.get(f.path)?.state !== 'absent')
        .map((f) => plannedFile(f, now.files.get(f.path))),
      ...(files.link ? [plannedLink(files.link, now.files.get(files.link.link))] : []),
    ];
    const status = parseNginxStatus(facts);
    return {
      status: 'planned',
      hostKeyFingerprint: session.fingerprint,
      plan: {
        fingerprint: now.fingerprint,
        family: paths.enabledLink ? 'debian' : 'rhel',
        files: planned,
        commands: plannedCommands({
          server,
          domain,
          missing,
          selinuxOff: marked(facts, 'PORTICO_SELINUX')[0] === 'off',
          nginxRunning: status.running,
          hasCertificate,
          customScript: Boolean(input.customScript),
          ...(upload ? { upload: upload.paths.dir } : {}),
          ...(sharedPaths ? { shared: true } : {}),
          ...(site.hasUploaded ? { uploadedDir: uploadedCertificateDir(domain) } : {}),
        }),
        certificate: upload ? 'upload' : sharedPaths ? 'shared' : hasCertificate ? 'keep' : 'issue',
        reload: true,
        changes: planned.some((f) => f.change !== 'unchanged'),
      },
    };
  } catch (error) {
    const failure = toFailure(error, step, log, ctx.signal);
    await log.flush();
    return { status: 'failed', failure };
  } finally {
    session?.close();
  }
}
