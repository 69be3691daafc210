import { createHash } from 'node:crypto';
import {
  DNS_CREDENTIALS_MARK,
  DNS_PROVIDERS,
  dnsCredentialsIni,
  isWildcard,
  sampleName,
  type TDnsCredentials,
  WILDCARD_PREFIX,
  ZDnsCredentials,
} from '@portico/shared/certificates/dns-challenge';
import { DeployValidationError } from '../validate';
import { StepError, withOutput } from './failure';
import { msg } from './messages';
import type { TFileWrite } from './nginx-writes';
import { installPackages } from './packages';
import { asRoot, marked, outputOf, type TStepContext } from './step-context';
import type { TDnsChallenge } from './types';

export type { TDnsChallenge } from './types';

/**
 * Portico's directory for DNS credentials on the server (root only, 0700). certbot's renewal
 * configuration names the file, so it stays while a renewal needs it: it goes once no file under
 * /etc/letsencrypt/renewal/ names it (`pruneDnsCredentials`).
 */
export const DNS_CREDENTIALS_DIR = '/etc/portico/dns';

/**
 * One file per provider and content: proxies of a server with the same credentials share it,
 * and changed credentials are a new file while the old one still serves other renewals. A
 * plugin that reads one file of its own (Route 53: root's AWS configuration) has that one.
 */
export function dnsCredentialsPath(credentials: TDnsCredentials): string {
  const fixed = DNS_PROVIDERS[credentials.provider].fixedFile;
  if (fixed) return fixed;
  const hash = createHash('sha256').update(dnsCredentialsIni(credentials)).digest('hex');
  return `${DNS_CREDENTIALS_DIR}/${credentials.provider}-${hash.slice(0, 16)}.ini`;
}

/** The names the certificate covers, each a certbot `-d`. */
export function certificateNames(domain: string, dns: TDnsChallenge | undefined): string[] {
  if (!isWildcard(domain) || !dns?.includeApex) return [domain];
  return [domain, domain.slice(WILDCARD_PREFIX.length)];
}

/**
 * The name the preflight looks up and the verification asks for: a wildcard has no name of its
 * own, so the name under it when the site serves that, else a sample subdomain (which a DNS
 * wildcard record, or the user's own record, must point at the server).
 */
export function probeName(domain: string, dns: TDnsChallenge | undefined): string {
  if (isWildcard(domain) && dns?.includeApex) return domain.slice(WILDCARD_PREFIX.length);
  return sampleName(domain);
}

/** The credentials checked again before they reach a file; never echoed. */
function checkDnsChallenge(dns: TDnsChallenge): TDnsChallenge {
  const parsed = ZDnsCredentials.safeParse(dns.credentials);
  if (!parsed.success) {
    throw new StepError('invalid_input', 'validate', msg('dns01.badCredentials'));
  }
  return { credentials: parsed.data, includeApex: dns.includeApex === true };
}

/**
 * How a deployment (or its plan) of a validated site name gets its certificate: the checked
 * DNS challenge (none with an uploaded certificate, served as it is), the name the DNS check
 * and the verification ask for, and whether the site serves a wildcard's apex. A wildcard
 * without DNS-01 (or an upload) stops here.
 */
export function challengeOf(
  domain: string,
  input: { dnsChallenge?: TDnsChallenge; uploadedCertificate?: unknown },
): { dns?: TDnsChallenge; probe: string; apex: boolean } {
  const dns =
    input.dnsChallenge && !input.uploadedCertificate
      ? checkDnsChallenge(input.dnsChallenge)
      : undefined;
  if (isWildcard(domain) && !dns && !input.uploadedCertificate) {
    throw new DeployValidationError('domain', 'wildcard');
  }
  return {
    ...(dns ? { dns } : {}),
    probe: probeName(domain, dns),
    apex: isWildcard(domain) && dns?.includeApex === true,
  };
}

/** The credentials file as a planned write: 0600, so the plan lists it without its content. */
export function dnsCredentialsWrite(dns: TDnsChallenge): TFileWrite {
  const content = dnsCredentialsIni(dns.credentials);
  return { path: dnsCredentialsPath(dns.credentials), content, mode: 0o600 };
}

/**
 * A fixed file (root's ~/.aws/config) may already be the server owner's: Portico replaces only
 * its own, and otherwise stops before writing anything.
 */
async function refuseForeignFile(
  c: TStepContext,
  dns: TDnsChallenge,
  step: 'packages' | 'certificate',
): Promise<void> {
  const path = DNS_PROVIDERS[dns.credentials.provider].fixedFile;
  if (!path) return;
  const existing = await c.session.readFile(path);
  if (existing && !existing.toString('utf8').startsWith(DNS_CREDENTIALS_MARK)) {
    throw new StepError('invalid_input', step, msg('dns01.foreignFile', { file: path }));
  }
}

// $1: the package (a registry constant). Prints PORTICO_DNS_PLUGIN=present|missing.
const PLUGIN_PRESENT = `if command -v dpkg-query >/dev/null 2>&1; then
  dpkg-query -W -f='\${Status}' "$1" 2>/dev/null | grep -q 'install ok installed' && ok=1
elif command -v rpm >/dev/null 2>&1; then
  rpm -q "$1" >/dev/null 2>&1 && ok=1
fi
if [ -n "\${ok:-}" ]; then echo PORTICO_DNS_PLUGIN=present; else echo PORTICO_DNS_PLUGIN=missing; fi`;

async function pluginPresent(c: TStepContext, pkg: string): Promise<boolean> {
  const r = await asRoot(c.session, PLUGIN_PRESENT, { args: [pkg] });
  return marked(r.stdout, 'PORTICO_DNS_PLUGIN')[0] === 'present';
}

/** certbot's DNS plugin for the provider, installed like nginx and certbot when missing. */
export async function ensureDnsPlugin(c: TStepContext, dns: TDnsChallenge): Promise<void> {
  // Before anything is installed: a file the plugin needs that Portico may not write stops it.
  await refuseForeignFile(c, dns, 'packages');
  const pkg = DNS_PROVIDERS[dns.credentials.provider].debianPackage;
  if (await pluginPresent(c, pkg)) {
    c.log.info(msg('dns01.pluginPresent', { package: pkg }));
    return;
  }
  const { tool, result } = await installPackages(c, [pkg]);
  if (result.code !== 0 || !(await pluginPresent(c, pkg))) {
    throw new StepError(
      'package_install_failed',
      'packages',
      withOutput(msg('dns01.pluginFailed', { package: pkg, tool }), outputOf(result)),
    );
  }
  c.log.success(msg('packages.installed', { missing: pkg }));
}

/** Writes the credentials file (0600 by root, through SFTP: never in a command line). */
export async function writeDnsCredentials(c: TStepContext, dns: TDnsChallenge): Promise<string> {
  const path = dnsCredentialsPath(dns.credentials);
  if (DNS_PROVIDERS[dns.credentials.provider].fixedFile) {
    await refuseForeignFile(c, dns, 'certificate');
    // A constant of the registry (/root/.aws), never a user value.
    const dir = path.slice(0, path.lastIndexOf('/'));
    await asRoot(c.session, `umask 077; mkdir -p ${dir} && chmod 0700 ${dir}`);
  } else {
    await asRoot(
      c.session,
      `umask 077; mkdir -p ${DNS_CREDENTIALS_DIR} && chmod 0700 /etc/portico ${DNS_CREDENTIALS_DIR}`,
    );
  }
  const changed = await c.session.syncFile(path, dnsCredentialsWrite(dns).content, 0o600);
  c.log.info(msg(changed ? 'dns01.credentialsWritten' : 'dns01.credentialsKept', { file: path }));
  return path;
}

/** certbot's arguments for the challenge (instead of `--webroot -w …`). */
export function dnsCertbotArgs(
  dns: TDnsChallenge,
  file: string,
  propagationSeconds: number | undefined,
): string[] {
  const { plugin, fixedFile } = DNS_PROVIDERS[dns.credentials.provider];
  const wait =
    propagationSeconds !== undefined && Number.isInteger(propagationSeconds)
      ? [`--${plugin}-propagation-seconds`, String(propagationSeconds)]
      : [];
  // A plugin reading its own fixed file takes no credentials option.
  const credentials = fixedFile ? [] : [`--${plugin}-credentials`, file];
  return ['--authenticator', plugin, ...credentials, ...wait];
}

// Removes the credentials files no renewal configuration names any more; prints each removed.
// Then $2 $3, $4 $5, …: a plugin's fixed file and the plugin, the file removed when it is
// Portico's own and no renewal uses the plugin.
const PRUNE = `dir=$1; shift
if [ -d "$dir" ]; then
  for f in "$dir"/*.ini; do
    [ -e "$f" ] || continue
    grep -rqsF -- "$f" /etc/letsencrypt/renewal && continue
    rm -f -- "$f" && printf 'PORTICO_PRUNED=%s\\n' "$f"
  done
fi
while [ $# -ge 2 ]; do
  f=$1; plugin=$2; shift 2
  [ -f "$f" ] || continue
  head -n1 -- "$f" | grep -qF '${DNS_CREDENTIALS_MARK}' || continue
  grep -rqsE -- "^authenticator *= *$plugin\\$" /etc/letsencrypt/renewal && continue
  rm -f -- "$f" && printf 'PORTICO_PRUNED=%s\\n' "$f"
done`;

/** The plugins that read a fixed file, with it: constants of the registry. */
const FIXED_FILES = Object.values(DNS_PROVIDERS).flatMap((p) =>
  p.fixedFile ? [p.fixedFile, p.plugin] : [],
);

/** Takes away the credentials files no certificate's renewal needs, saying which. */
export async function pruneDnsCredentials(c: TStepContext): Promise<string[]> {
  const r = await asRoot(c.session, PRUNE, { args: [DNS_CREDENTIALS_DIR, ...FIXED_FILES] });
  const removed = marked(r.stdout, 'PORTICO_PRUNED');
  for (const file of removed) c.log.info(msg('dns01.credentialsRemoved', { file }));
  return removed;
}
