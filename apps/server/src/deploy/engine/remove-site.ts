import { certName, htpasswdPath, porticoSiteFiles } from '../site-names';
import { assertSiteDomain } from '../validate';
import { AWAIT_OTHER_CERTBOT, CERTBOT_WAIT_S, certbotLines, certbotReason } from './certificate';
import { pruneDnsCredentials } from './dns-challenge';
import { StepError, toFailure, withOutput } from './failure';
import { EngineLog } from './logger';
import { msg } from './messages';
import { nginxStatus, reloadNginx, testNginx } from './nginx-control';
import { onServer } from './server-address';
import { ServerVisit } from './server-visit';
import { SiteRecord } from './site-record';
import { asRoot, marked, outputOf, type TStepContext } from './step-context';
import type { TEngineContext, TRemoveInput, TRemoveOutcome } from './types';
import { pruneUploadedCertificates } from './uploaded-certificate';

// Moves the site's files aside (never deleted before nginx -t agrees), prints what it moved.
const DISABLE = `stamp=$1; shift
for f in "$@"; do
  if [ -e "$f" ] || [ -L "$f" ]; then
    mv -f -- "$f" "$(dirname "$f")/.$(basename "$f").portico-removed-$stamp" && printf 'PORTICO_MOVED=%s\\n' "$f"
  fi
done`;
const RESTORE = `stamp=$1; shift
for f in "$@"; do mv -f -- "$(dirname "$f")/.$(basename "$f").portico-removed-$stamp" "$f"; done`;
const DISCARD = `stamp=$1; shift
for f in "$@"; do rm -f -- "$(dirname "$f")/.$(basename "$f").portico-removed-$stamp"; done`;

// A wildcard's certificate another site still names (a proxy served with it, issue 41) stays:
// its files are listed instead (PORTICO_CERT_USED) and certbot is not asked.
const CERT_DELETE = `used=$(grep -rlsF -- "/etc/letsencrypt/live/$1/" /etc/nginx)
if [ -n "$used" ]; then printf '%s\\n' "$used" | sed 's/^/PORTICO_CERT_USED=/'; exit 0; fi
${AWAIT_OTHER_CERTBOT}
if [ -e "/etc/letsencrypt/renewal/$1.conf" ] || [ -d "/etc/letsencrypt/live/$1" ]; then
  certbot delete --non-interactive --cert-name "$1" 2>&1
else
  echo PORTICO_NO_CERT=1
fi`;

async function removeFiles(c: TStepContext, domain: string): Promise<void> {
  const stamp = String(Date.now());
  // The basic-auth users' file goes with the site.
  const candidates = [...porticoSiteFiles(domain), htpasswdPath(domain)];
  const moved = await asRoot(c.session, DISABLE, { args: [stamp, ...candidates] });
  const files = marked(moved.stdout, 'PORTICO_MOVED');
  if (moved.code !== 0) {
    await asRoot(c.session, RESTORE, { args: [stamp, ...files] });
    throw new StepError(
      'internal',
      'remove',
      withOutput(msg('remove.filesFailed'), outputOf(moved)),
    );
  }
  if (files.length === 0) {
    c.log.info(msg('remove.nothing', { domain }));
    return;
  }
  c.log.info(msg('remove.disabled', { files: files.join(', ') }));
  const test = await testNginx(c);
  if (!test.ok) {
    await asRoot(c.session, RESTORE, { args: [stamp, ...files] });
    throw new StepError(
      'nginx_config_invalid',
      'remove',
      withOutput(msg('remove.testFailed'), test.output),
    );
  }
  c.log.info(msg('remove.testPassed'));
  await asRoot(c.session, DISCARD, { args: [stamp, ...files] });
  const status = await nginxStatus(c);
  if (status.running) await reloadNginx(c, 'remove');
  else c.log.info(msg('remove.noReload'));
}

/** Takes a Portico site off a server: files removed, nginx tested and reloaded. */
export async function removeSite(
  input: TRemoveInput,
  ctx: TEngineContext,
): Promise<TRemoveOutcome> {
  const log = new EngineLog(ctx.log, ctx.settings.language);
  return onServer(input, ctx, log, (resolved, held) => remove(resolved, held, log));
}

async function remove(
  input: TRemoveInput,
  ctx: TEngineContext,
  log: EngineLog,
): Promise<TRemoveOutcome> {
  const visit = new ServerVisit(ctx, log);
  try {
    const domain = assertSiteDomain(input.domain);
    log.info(msg('remove.removing', { domain, serverIp: input.serverIp }));
    const c = await visit.open(input);
    visit.step = 'remove';
    const site = new SiteRecord(c, domain, ctx.onSite);
    try {
      await removeFiles(c, domain);
    } finally {
      await site.survey().catch(() => undefined);
    }
    // No site names an uploaded certificate now: its key leaves the server with the site.
    if (await pruneUploadedCertificates(c, domain, undefined)) {
      await site.survey().catch(() => undefined);
    }
    if (input.removeCertificate) {
      visit.step = 'remove-certificate';
      log.info(msg('remove.deletingCert', { name: certName(domain) }));
      const r = await asRoot(c.session, CERT_DELETE, {
        args: [certName(domain)],
        onLine: certbotLines(c),
        timeoutMs: (CERTBOT_WAIT_S + 60) * 1000,
      });
      await site.survey().catch(() => undefined);
      if (r.code !== 0) {
        throw new StepError(
          'certbot_failed',
          visit.step,
          withOutput(msg('remove.certDeleteFailed'), certbotReason(outputOf(r))),
        );
      }
      const usedBy = marked(r.stdout, 'PORTICO_CERT_USED');
      if (usedBy.length > 0) {
        log.info(msg('remove.certShared', { name: certName(domain), files: usedBy.join(', ') }));
      } else {
        log.info(
          r.stdout.includes('PORTICO_NO_CERT=1') ? msg('remove.noCert') : msg('remove.certDeleted'),
        );
      }
      // DNS credentials leave with the last certificate whose renewal names them.
      await pruneDnsCredentials(c);
    } else {
      log.info(msg('remove.certKept'));
    }
    log.success(msg('remove.removed', { domain, serverIp: input.serverIp }));
    await log.flush();
    return { status: 'removed' };
  } catch (error) {
    const failure = toFailure(error, visit.step, log, ctx.signal);
    log.error(failure.text);
    await log.flush();
    return { status: 'failed', failure };
  } finally {
    visit.close();
  }
}
