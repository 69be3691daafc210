import { createHash } from 'node:crypto';
import { isWildcard, WILDCARD_PREFIX } from '@portico/shared/certificates/dns-challenge';
import { assertSiteDomain, DeployValidationError } from './validate';

/**
 * Names derived from a domain on the user's server: the site file, the certbot certificate
 * name, and the nginx tuning a long domain needs. Measured limits behind them:
 * - A file name is at most 255 bytes: `proxy-<domain>.conf` overflows for domains over 244
 *   characters, certbot's `renewal/<name>.conf` for names over 250. Long domains therefore get a
 *   shortened name with a hash suffix, the same on every run so redeploys touch the same files.
 * - nginx builds a hash of server names once two servers share a port (any Debian host with the
 *   default site). With the default `server_names_hash_bucket_size` of 64 (the CPU cache line
 *   on x86), names of 47+ characters make `nginx -t` fail ("could not build server_names_hash").
 *   Measured with nginx 1.22: a bucket of B bytes holds names of up to B - 18 characters
 *   (64 → 46, 128 → 110, 256 → 238; 253 needs 512).
 */

export type TOsFamily = 'debian' | 'rhel';

const LONG_NAME = 200;

/**
 * A site name as file names and certbot's `--cert-name` hold it: a wildcard's `*` becomes
 * `_wildcard` (no host name holds `_`, so it never meets a real name's files; no shell glob
 * either).
 */
export function siteLabel(domain: string): string {
  const d = assertSiteDomain(domain);
  return isWildcard(d) ? `_wildcard.${d.slice(WILDCARD_PREFIX.length)}` : d;
}

function shortened(domain: string): string {
  if (domain.length <= LONG_NAME) return domain;
  const hash = createHash('sha256').update(domain).digest('hex').slice(0, 16);
  return `${domain.slice(0, LONG_NAME - 20)}-${hash}`;
}

/** The certbot `--cert-name`, also the directory under /etc/letsencrypt/live/. */
export function certName(domain: string): string {
  return shortened(siteLabel(domain));
}

export interface TSitePaths {
  /** The file Portico writes. */
  file: string;
  /** Debian family: the symlink in sites-enabled pointing at `file`. */
  enabledLink?: string;
}

export function sitePaths(family: TOsFamily, domain: string): TSitePaths {
  const name = `proxy-${shortened(siteLabel(domain))}`;
  if (family === 'debian') {
    return {
      file: `/etc/nginx/sites-available/${name}`,
      enabledLink: `/etc/nginx/sites-enabled/${name}`,
    };
  }
  if (family === 'rhel') return { file: `/etc/nginx/conf.d/${name}.conf` };
  throw new DeployValidationError('osFamily', 'osFamily');
}

/**
 * The site's basic-auth users (`user:$6$…` lines), root-owned and readable by nginx's group
 * only (written and removed within the site transaction, engine/site-files.ts).
 */
export function htpasswdPath(domain: string): string {
  return `/etc/nginx/portico-htpasswd/${shortened(siteLabel(domain))}`;
}

/**
 * Portico's own directory for uploaded certificates on the server (root only, 0700): one
 * directory per certificate name, holding one directory per uploaded certificate, named by its
 * fingerprint, so a replacement is a new path the site file switches to under `nginx -t`.
 */
export const UPLOADED_CERT_DIR = '/etc/portico/certificates';

export function uploadedCertificateDir(domain: string): string {
  return `${UPLOADED_CERT_DIR}/${certName(domain)}`;
}

export interface TCertificatePaths {
  /** The directory holding both files (one per uploaded certificate). */
  dir: string;
  chain: string;
  key: string;
}

/** Where an uploaded certificate with this SHA-256 fingerprint (`AB:CD:…`) lives. */
export function uploadedCertificatePaths(domain: string, fingerprint: string): TCertificatePaths {
  const version = fingerprint.replaceAll(':', '').toLowerCase().slice(0, 16);
  if (!/^[0-9a-f]{16}$/.test(version)) {
    throw new DeployValidationError('certificate', 'fingerprint');
  }
  const dir = `${uploadedCertificateDir(domain)}/${version}`;
  return { dir, chain: `${dir}/fullchain.pem`, key: `${dir}/privkey.pem` };
}

/** Every place a Portico site for the domain may live, in either layout (link first). */
export function porticoSiteFiles(domain: string): string[] {
  const debian = sitePaths('debian', domain);
  return [debian.enabledLink!, debian.file, sitePaths('rhel', domain).file];
}

/** Where Portico puts http-level tuning; `conf.d/*.conf` is included in `http {}` on both families. */
export const SERVER_NAMES_TUNING_PATH = '/etc/nginx/conf.d/portico-server-names.conf';

/** The smallest power-of-two bucket that holds the domain, 64 when nginx's default suffices. */
export function serverNamesBucketSize(domain: string): number {
  const need = assertSiteDomain(domain).length + 18;
  let size = 64;
  while (size < need) size *= 2;
  return size;
}

/**
 * The tuning file for domains longer than 46 characters. nginx refuses a directive set twice,
 * so the engine writes this only when `nginx -T` shows no other server_names_hash_bucket_size
 * (and otherwise reports that the existing value is too small for the domain).
 */
export function renderServerNamesTuning(size: number): string {
  if (![64, 128, 256, 512].includes(size)) {
    throw new DeployValidationError('bucketSize', 'bucketSize');
  }
  return [
    '# Managed by Portico: room for long domain names in the server names hash.',
    `server_names_hash_bucket_size ${size};`,
    '',
  ].join('\n');
}
