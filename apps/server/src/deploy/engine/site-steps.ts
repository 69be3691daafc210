import { LETSENCRYPT_DIR } from '../nginx-site';
import {
  certName,
  porticoSiteFiles,
  sitePaths,
  type TCertificatePaths,
  type TSitePaths,
  UPLOADED_CERT_DIR,
} from '../site-names';
import { StepError, withOutput } from './failure';
import { msg, quantity } from './messages';
import { DUMP_PROBE, dumpOf, serverNameOwners } from './nginx-dump';
import { dumpOfAnswer, keepDump, type TDumpPlace } from './nginx-dump-cache';
import { applyNginxFiles } from './nginx-transaction';
import { serverNamesTuning } from './nginx-tuning';
import { siteFiles, type TSiteBody } from './site-files';
import type { TSiteLook } from './site-record';
import { asRoot, firstMarked, outputOf, type TStepContext } from './step-context';

export type { TSiteBody } from './site-files';

// Debian-family nginx from nginx.org has no sites-enabled include: such servers get the
// conf.d layout, like the Red Hat family. $1 is the domain's live certificate directory.
// Read-only: part of the remote preflight (the directories are made when the site is written).
export const LAYOUT_PROBE = `if grep -Eqs '^[[:space:]]*include[[:space:]]+/etc/nginx/sites-enabled/' /etc/nginx/nginx.conf; then
  echo PORTICO_LAYOUT=debian
else
  echo PORTICO_LAYOUT=rhel
fi
if [ -f "$1/fullchain.pem" ] && [ -f "$1/privkey.pem" ]; then echo PORTICO_CERT=yes; else echo PORTICO_CERT=no; fi
if [ -d "${UPLOADED_CERT_DIR}/\${1##*/}" ]; then echo PORTICO_UPLOADED=yes; else echo PORTICO_UPLOADED=no; fi`;

/** The argument `LAYOUT_PROBE` reads as $1. */
export function liveDir(domain: string): string {
  return `${LETSENCRYPT_DIR}/live/${certName(domain)}`;
}

export interface TSitePlan {
  paths: TSitePaths;
  /** A certificate for the domain already exists (an earlier deployment). */
  hasCertificate: boolean;
  /** The relevant lines of `nginx -T` before any change. */
  nginxDump: string;
  /** The server's address and port: the HTTPS site step's dump is kept for the next run there. */
  dumpAt?: TDumpPlace;
  /** Portico's directory of uploaded certificates for the domain exists (an earlier upload). */
  hasUploaded: boolean;
  /** The uploaded certificate this run serves (written before the HTTP site step's files). */
  certificate?: TCertificatePaths;
}

/**
 * Where the site lives on this server and whether a certificate is already there, from the
 * remote preflight's output (`LAYOUT_PROBE` and `KEPT_DUMP_PART` within it) when it is still
 * current, else read now (after packages were installed). `at`: the server's address and port,
 * under which the preflight's dump (or the one kept that it vouched for) is found.
 */
export async function planSite(
  c: TStepContext,
  domain: string,
  preflight?: { stdout: string },
  at?: TDumpPlace,
): Promise<TSitePlan> {
  const r = preflight
    ? { code: 0, stdout: preflight.stdout, stderr: '' }
    : await asRoot(c.session, `${LAYOUT_PROBE}\n${DUMP_PROBE}\nexit 0`, {
        args: [liveDir(domain)],
      });
  const layout = firstMarked(r.stdout, 'PORTICO_LAYOUT');
  if (r.code !== 0 || !layout) {
    throw new StepError('internal', 'http-site', withOutput(msg('site.layoutFailed'), outputOf(r)));
  }
  const family = c.server.family === 'debian' && layout === 'debian' ? 'debian' : 'rhel';
  const nginxDump = preflight
    ? (dumpOfAnswer(at, c.session.fingerprint, r.stdout) ?? (await readDump(c)))
    : dumpOf(r.stdout);
  // Never take over a site someone else wrote: nginx would serve only one of the two anyway.
  const ours = porticoSiteFiles(domain);
  const others = serverNameOwners(nginxDump, domain).filter((f) => !ours.includes(f));
  if (others.length > 0) {
    throw new StepError(
      'nginx_config_invalid',
      'http-site',
      msg('site.takenByOther', { domain, files: others.join(', ') }),
    );
  }
  return {
    paths: sitePaths(family, domain),
    hasCertificate: firstMarked(r.stdout, 'PORTICO_CERT') === 'yes',
    nginxDump,
    hasUploaded: firstMarked(r.stdout, 'PORTICO_UPLOADED') === 'yes',
    ...(at === undefined ? {} : { dumpAt: at }),
  };
}

/** The dump read now: the preflight vouched for a kept one that is no longer kept. */
async function readDump(c: TStepContext): Promise<string> {
  return dumpOf((await asRoot(c.session, `${DUMP_PROBE}\nexit 0`)).stdout);
}

/**
 * Step 4: the site on port 80 with the ACME webroot. When a certificate exists already (a
 * redeploy), the final site is written instead: it serves the same ACME path on port 80, and
 * the site never drops back from HTTPS to HTTP while certbot checks the certificate.
 */
export async function httpSiteStep(
  c: TStepContext,
  domain: string,
  body: TSiteBody,
  plan: TSitePlan,
  look?: TSiteLook,
): Promise<{ changed: boolean }> {
  const tuning = serverNamesTuning(c, domain, plan.nginxDump);
  if (plan.hasCertificate) {
    c.log.info(msg('site.certExists', { domain }));
  } else {
    c.log.info(msg('site.writingHttp', { domain }));
  }
  const files = siteFiles({ domain, body, ipv6: c.server.ipv6, ...plan, tuning });
  // The users' file is part of the transaction: a refused site puts its old bytes back too.
  const applied = await applyNginxFiles(c, 'http-site', files.httpStep, { link: files.link, look });
  if (files.users > 0) {
    c.log.info(
      msg('site.basicAuthUsers', { path: body.htpasswdPath, count: quantity(files.users) }),
    );
  }
  return applied;
}

/**
 * Step 6: port 80 redirects to HTTPS (ACME path excepted); 443 serves TLS + HTTP/2 and proxies.
 * `live`: step 4 reloaded nginx and the certificate has not changed since, so unchanged files
 * need no second reload (a redeploy).
 */
export async function finalSiteStep(
  c: TStepContext,
  domain: string,
  body: TSiteBody,
  plan: TSitePlan,
  live = false,
  look?: TSiteLook,
): Promise<void> {
  c.log.info(msg('site.writingHttps', { domain }));
  const files = siteFiles({ domain, body, ipv6: c.server.ipv6, ...plan });
  // Its test is `nginx -T`: the next run's preflight there takes this dump instead of a parse.
  const dump = plan.dumpAt !== undefined;
  const applied = await applyNginxFiles(c, 'https-site', files.finalStep, {
    link: files.link,
    live,
    look,
    dump,
  });
  if (dump) keepDump(plan.dumpAt, c.session.fingerprint, applied.answer);
}
