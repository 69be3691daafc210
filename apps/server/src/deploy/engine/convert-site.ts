import { describeAnswer, sameAnswer, siteAnswer, type TSiteAnswer } from '../../net/site-answer';
import { serverBlocks, type TDumpFile } from '../nginx-config';
import { porticoSiteFiles, sitePaths } from '../site-names';
import { assertRemotePath } from '../ssh/write-file';
import { unifiedDiff } from '../unified-diff';
import { assertDomain, normalizeTarget } from '../validate';
import { StepError, toFailure } from './failure';
import { EngineLog } from './logger';
import { msg } from './messages';
import { reloadNginx } from './nginx-control';
import { DUMP_PROBE, dumpOf, serverNameOwners } from './nginx-dump';
import { applyNginxFiles } from './nginx-transaction';
import { serverNamesTuning } from './nginx-tuning';
import type { TFileWrite } from './nginx-writes';
import { plannedFile, plannedLink, type TDeployPlan } from './plan-deployment';
import { readServerFiles, type TServerFiles } from './plan-read';
import { onServer } from './server-address';
import { ServerVisit } from './server-visit';
import { siteBodyOf, siteFiles, type TSiteFiles } from './site-files';
import { SiteRecord } from './site-record';
import { LAYOUT_PROBE, liveDir } from './site-steps';
import { asRoot, firstMarked, type TStepContext } from './step-context';
import type { TDeployFailure, TDeployInput, TEngineContext } from './types';

/**
 * An adopted site (docs/PRODUCT.md#sites-on-this-server) rewritten in Portico's form: its
 * hand-written file as adoption recorded it (`adoptedSha256`, the file's bytes through a link).
 */
export interface TConvertInput
  extends Omit<TDeployInput, 'email' | 'customScript' | 'uploadedCertificate'> {
  adoptedFile: string;
  adoptedSha256: string;
}

export type TConvertPlanOutcome =
  | { status: 'planned'; hostKeyFingerprint: string; plan: TDeployPlan }
  | { status: 'failed'; failure: TDeployFailure };

export type TConvertOutcome =
  | {
      status: 'converted';
      hostKeyFingerprint: string;
      nginxConfigPath: string;
      https: boolean;
      /** How the site answered, the same before and after. */
      answer: TSiteAnswer;
    }
  | {
      status: 'failed';
      hostKeyFingerprint?: string;
      failure: TDeployFailure;
      /** Set when files were written and then put back (else nothing was written). */
      rolledBack?: true;
    };

const STEP = 'convert';
/** An answer right after the reload may still come from an old worker: looked at a few times. */
const AFTER_TRIES = 3;
const AFTER_PAUSE_MS = 500;

interface TConversion {
  https: boolean;
  files: TSiteFiles;
  removals: TFileWrite[];
  now: TServerFiles;
  family: 'debian' | 'rhel';
}

/** Where a link points, as a path: relative targets are read from the link's directory. */
function linkTarget(link: string, target: string): string | null {
  const dir = link.slice(0, link.lastIndexOf('/'));
  const parts: string[] = [];
  for (const part of (target.startsWith('/') ? target : `${dir}/${target}`).split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  const path = `/${parts.join('/')}`;
  try {
    assertRemotePath(path);
  } catch {
    return null;
  }
  // Only a file of nginx's configuration goes with the site; anything else stays where it is.
  return path.startsWith('/etc/nginx/') ? path : null;
}

/**
 * Reads what the conversion needs, writes nothing: the layout, the names nginx serves, the
 * adopted file (and the file its link points at) and every path Portico would write. Refuses a
 * file changed since adoption, shared with other names, or a name served elsewhere too.
 */
async function readConversion(
  c: TStepContext,
  input: TConvertInput,
  domain: string,
): Promise<TConversion> {
  const target = normalizeTarget(input.targetServer, 'targetServer');
  const body = siteBodyOf(domain, target, input.options, c.settings.allowCustomNginx);
  assertRemotePath(input.adoptedFile);
  const probe = await asRoot(c.session, `${LAYOUT_PROBE}\n${DUMP_PROBE}\nexit 0`, {
    args: [liveDir(domain)],
  });
  const layout = firstMarked(probe.stdout, 'PORTICO_LAYOUT');
  const family = c.server.family === 'debian' && layout === 'debian' ? 'debian' : 'rhel';
  const dump = dumpOf(probe.stdout);
  let now = await readServerFiles(c, domain, STEP, [input.adoptedFile]);
  const first = now.files.get(input.adoptedFile);
  const linked = first?.state === 'link' ? linkTarget(input.adoptedFile, first.target) : null;
  if (linked) now = await readServerFiles(c, domain, STEP, [input.adoptedFile, linked]);
  const content = now.files.get(linked ?? input.adoptedFile);
  if (content?.state !== 'file' || content.sha256 !== input.adoptedSha256) {
    throw new StepError(
      'server_changed',
      STEP,
      msg('convert.changedSinceAdoption', { file: input.adoptedFile }),
    );
  }
  const owned = [input.adoptedFile, ...(linked ? [linked] : [])];
  const others = serverNameOwners(dump, domain).filter(
    (f) => !owned.includes(f) && !porticoSiteFiles(domain).includes(f),
  );
  if (others.length > 0) {
    throw new StepError(
      'nginx_config_invalid',
      STEP,
      msg('convert.servedElsewhere', { domain, files: others.join(', ') }),
    );
  }
  const file: TDumpFile = { path: input.adoptedFile, text: content.content };
  const blocks = serverBlocks([file]);
  const names = [...new Set(blocks.flatMap((b) => b.serverNames))].filter((n) => n !== domain);
  if (names.length > 0) {
    throw new StepError(
      'invalid_input',
      STEP,
      msg('convert.sharedFile', { file: input.adoptedFile, names: names.join(', ') }),
    );
  }
  const tlsBlock = blocks.find((b) => b.sslCertificate !== null);
  const https = blocks.some((b) => b.listen.some((l) => l.ssl)) || tlsBlock !== undefined;
  const chain = tlsBlock?.sslCertificate ?? null;
  const key = tlsBlock?.sslCertificateKey ?? null;
  if (https && (!chain || !key)) {
    throw new StepError(
      'invalid_input',
      STEP,
      msg('convert.noCertificate', { file: input.adoptedFile }),
    );
  }
  const live = liveDir(domain);
  // Certbot's lineage for the name is Portico's own form; any other files are named as they are.
  const ownLineage = chain === `${live}/fullchain.pem` && key === `${live}/privkey.pem`;
  const files = siteFiles({
    domain,
    body,
    ipv6: c.server.ipv6,
    paths: sitePaths(family, domain),
    hasCertificate: https,
    tuning: serverNamesTuning(c, domain, dump),
    ...(https && !ownLineage ? { certificate: { chain: chain!, key: key! } } : {}),
  });
  const removals = owned
    .filter((p) => !porticoSiteFiles(domain).includes(p))
    .map((path): TFileWrite => ({ path, content: '', mode: 0o644, way: 'remove' }));
  return { https, files, removals, now, family };
}

/** The whole change in the order the transaction makes it: the old file out, Portico's in. */
function conversionWrites(conversion: TConversion): TFileWrite[] {
  return [...conversion.removals, ...conversion.files.httpStep];
}

function planOf(conversion: TConversion): TDeployPlan {
  const { now, files } = conversion;
  const planned = [
    ...conversionWrites(conversion)
      .filter((f) => f.way !== 'remove' || now.files.get(f.path)?.state !== 'absent')
      .map((f) => {
        const was = now.files.get(f.path);
        // A link that goes is shown as the link it was, not as the file it points at.
        if (f.way === 'remove' && was?.state === 'link') {
          const diff = unifiedDiff(f.path, `-> ${was.target}\n`, '');
          return {
            ...plannedFile(f, undefined),
            kind: 'link' as const,
            change: 'remove' as const,
            diff,
          };
        }
        return plannedFile(f, was);
      }),
    ...(files.link ? [plannedLink(files.link, now.files.get(files.link.link))] : []),
  ];
  return {
    fingerprint: now.fingerprint,
    family: conversion.family,
    files: planned,
    commands: [
      { kind: 'test', command: 'nginx -t' },
      { kind: 'reload', command: 'systemctl reload nginx' },
    ],
    certificate: conversion.https ? 'keep' : 'none',
    reload: true,
    changes: planned.some((f) => f.change !== 'unchanged'),
  };
}

/**
 * "Convert to Portico's configuration", the plan: what the conversion would remove and write,
 * each file diffed against the server now. Never writes; takes no server lock. Never throws.
 */
export async function planConversion(
  input: TConvertInput,
  ctx: TEngineContext,
): Promise<TConvertPlanOutcome> {
  const log = new EngineLog(ctx.log, ctx.settings.language);
  return onServer(
    input,
    ctx,
    log,
    async (resolved, held) => {
      const visit = new ServerVisit(held, log);
      try {
        const domain = assertDomain(resolved.domain);
        const c = await visit.open(resolved);
        visit.step = STEP;
        const conversion = await readConversion(c, resolved, domain);
        return {
          status: 'planned' as const,
          hostKeyFingerprint: c.session.fingerprint,
          plan: planOf(conversion),
        };
      } catch (error) {
        const failure = toFailure(error, visit.step, log, held.signal);
        await log.flush();
        return { status: 'failed' as const, failure };
      } finally {
        visit.close();
      }
    },
    { lock: false },
  );
}

async function answerOf(serverIp: string, domain: string, https: boolean) {
  try {
    return await siteAnswer(serverIp, domain, https);
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/**
 * "Convert to Portico's configuration", applied: the server is read again and must be as the
 * plan saw it; the site's answer from outside is taken; the hand-written file goes and Portico's
 * comes in one transaction behind `nginx -t` (the site's certificate kept: its files are
 * named as they are); then the answer is taken again, and when it is not the same (status,
 * redirect, body, certificate) every file is put back and nginx reloaded. Never throws.
 */
export async function convertSite(
  input: TConvertInput & { planFingerprint: string },
  ctx: TEngineContext,
): Promise<TConvertOutcome> {
  const log = new EngineLog(ctx.log, ctx.settings.language);
  return onServer(input, ctx, log, async (resolved, held) => {
    const visit = new ServerVisit(held, log);
    let fingerprint: string | undefined;
    let writing = false;
    try {
      const domain = assertDomain(resolved.domain);
      const c = await visit.open(resolved);
      fingerprint = c.session.fingerprint;
      visit.step = STEP;
      const conversion = await readConversion(c, resolved, domain);
      if (conversion.now.fingerprint !== resolved.planFingerprint) {
        throw new StepError('server_changed', STEP, msg('plan.serverChanged'));
      }
      const before = await answerOf(resolved.serverIp, domain, conversion.https);
      if ('error' in before) {
        throw new StepError(
          'verification_failed',
          STEP,
          msg('convert.noAnswerBefore', { reason: before.error }),
        );
      }
      log.info(msg('convert.answerBefore', { answer: describeAnswer(before) }));
      // A body that changes between two requests (a clock, a token) cannot be compared.
      const twice = await answerOf(resolved.serverIp, domain, conversion.https);
      const body = !('error' in twice) && twice.bodySha256 === before.bodySha256;
      if (!body) log.info(msg('convert.bodyVaries'));
      const site = new SiteRecord(c, domain, held.onSite);
      writing = true;
      const applied = await applyNginxFiles(c, STEP, conversionWrites(conversion), {
        link: conversion.files.link,
      });
      visit.step = 'verify';
      let after: TSiteAnswer | { error: string } = before;
      for (let i = 0; i < AFTER_TRIES; i++) {
        if (i > 0) await new Promise((r) => setTimeout(r, AFTER_PAUSE_MS));
        after = await answerOf(resolved.serverIp, domain, conversion.https);
        if (!('error' in after) && sameAnswer(before, after, body)) break;
      }
      if ('error' in after || !sameAnswer(before, after, body)) {
        const seen = 'error' in after ? after.error : describeAnswer(after);
        log.warning(msg('convert.answerChanged', { before: describeAnswer(before), after: seen }));
        await applied.rollback();
        await reloadNginx(c, 'verify');
        throw new StepError(
          'verification_failed',
          'verify',
          msg('convert.rolledBack', { before: describeAnswer(before), after: seen }),
        );
      }
      log.info(msg('convert.answerSame', { answer: describeAnswer(after) }));
      await site.survey().catch(() => undefined);
      const path = conversion.files.httpStep.at(-1)!.path;
      log.success(msg('convert.done', { domain, file: path }));
      await log.flush();
      return {
        status: 'converted' as const,
        hostKeyFingerprint: c.session.fingerprint,
        nginxConfigPath: path,
        https: conversion.https,
        answer: after,
      };
    } catch (error) {
      const failure = toFailure(error, visit.step, log, held.signal);
      log.error(failure.text);
      await log.flush();
      return {
        status: 'failed' as const,
        ...(fingerprint ? { hostKeyFingerprint: fingerprint } : {}),
        failure,
        ...(writing ? { rolledBack: true as const } : {}),
      };
    } finally {
      visit.close();
    }
  });
}
