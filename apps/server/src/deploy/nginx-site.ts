import { isWildcard, WILDCARD_PREFIX } from '@portico/shared/certificates/dns-challenge';
import type { TProxyOptions } from '@portico/shared/proxy/options';
import {
  acmeExemption,
  checkOptions,
  routeLocations,
  serverLevel,
  upstreamBlocks,
} from './nginx-site-options';
import { certName } from './site-names';
import {
  assertSiteDomain,
  assertTarget,
  DeployValidationError,
  formatTarget,
  type TTarget,
} from './validate';

/**
 * nginx site files, rendered only from values that pass validate.ts (render throws otherwise).
 *
 * Choices, each for a reason:
 * - HTTP/2 is enabled with `listen 443 ssl http2;`. The `http2 on;` directive only exists from
 *   nginx 1.25.1; Debian 12 ships 1.22 (measured here: nginx/1.22.1). Newer nginx still accepts
 *   the listen parameter (with a deprecation warning), so this one form works on 1.22 and up.
 * - The WebSocket `Connection` header comes from a `map` at the top of the site file. Site files
 *   are included inside `http {}` on both Debian (sites-enabled/*) and RHEL (conf.d/*.conf), so
 *   the map needs nothing from the main nginx.conf. Every Portico site defines the same map
 *   with the same fixed variable name: nginx accepts a repeated map of one variable (map
 *   variables are "changeable"; the definitions are identical, so which one wins is moot).
 *   A per-domain variable name was tried first and broke `nginx -t` for long domains ("could not
 *   build variables_hash, you should increase variables_hash_bucket_size: 64"), and would grow
 *   the variables hash with every site.
 * - The ACME challenge location uses `^~` so no regex location, redirect or access rule ever
 *   takes it over, and exists in every server block of the site.
 * - The redirect names the validated domain instead of `$host`, so a forged Host header cannot
 *   steer it.
 * - Certificate lines appear only in the final site, which the engine writes after certbot has
 *   produced the files (a missing certificate would make `nginx -t` fail for every site).
 */

export const ACME_WEBROOT = '/var/www/portico-acme';
export const LETSENCRYPT_DIR = '/etc/letsencrypt';

export interface TSiteInput {
  domain: string;
  /** A normalised target object or its text form (normalised again here either way). */
  target: TTarget | string;
  /** Also listen on [::]; off for hosts whose kernel has IPv6 disabled. Default true. */
  ipv6?: boolean;
  /** The proxy's options as stored; checked again against the allowlist before rendering. */
  options?: TProxyOptions | null;
  /** PORTICO_ALLOW_CUSTOM_NGINX: without it, options holding advanced lines are refused. */
  allowAdvanced?: boolean;
  /** The basic-auth file the engine writes (`htpasswdPath`); needed when options have users. */
  htpasswdPath?: string;
  /** A wildcard domain's site also serves the name under it (`*.example.com example.com`). */
  apex?: boolean;
}

export interface TFinalSiteOptions {
  /** Where certbot keeps `live/<cert name>/`; only tests point it elsewhere. */
  letsencryptDir?: string;
  /** An uploaded certificate's files (site-names.ts uploadedCertificatePaths) instead of certbot's. */
  certificate?: { chain: string; key: string };
}

const SAFE_DIR = /^\/(?:[A-Za-z0-9._-]+\/)*[A-Za-z0-9._-]+$/;

interface TChecked {
  domain: string;
  /** nginx's `server_name` value: the domain, for a wildcard with its apex when asked. */
  serverNames: string;
  /** Where port 80 sends a visitor: the validated name, or (a wildcard) the name they asked. */
  redirectHost: string;
  target: TTarget;
  ipv6: boolean;
  options: TProxyOptions;
  htpasswdPath?: string;
}

function check(input: TSiteInput): TChecked {
  const { options, htpasswdPath } = checkOptions(
    input.options,
    input.allowAdvanced ?? false,
    input.htpasswdPath,
  );
  const domain = assertSiteDomain(input.domain);
  const wildcard = isWildcard(domain);
  if (input.apex && !wildcard) throw new DeployValidationError('domain', 'wildcard');
  const apex = wildcard && input.apex ? ` ${domain.slice(WILDCARD_PREFIX.length)}` : '';
  return {
    domain,
    serverNames: `${domain}${apex}`,
    // Only names server_name matched reach this server block, so $host is one of ours.
    redirectHost: wildcard ? '$host' : domain,
    target: assertTarget(input.target),
    ipv6: input.ipv6 ?? true,
    options,
    htpasswdPath,
  };
}

const UPGRADE_VARIABLE = '$portico_connection_upgrade';

function header(c: TChecked, kind: string): string[] {
  return [
    `# Managed by Portico (${kind} site for ${c.domain} -> ${formatTarget(c.target)}).`,
    '# Portico rewrites this file on every deployment; local edits will be replaced.',
    '',
    `map $http_upgrade ${UPGRADE_VARIABLE} {`,
    '    default upgrade;',
    "    ''      close;",
    '}',
    '',
    ...upstreamBlocks(c.domain, c.options),
  ];
}

function listen(port: 80 | 443, c: TChecked): string[] {
  const params = port === 443 ? ' ssl http2' : '';
  const lines = [`    listen ${port}${params};`];
  if (c.ipv6) lines.push(`    listen [::]:${port}${params};`);
  return lines;
}

function acmeLocation(c: TChecked): string[] {
  return [
    '    location ^~ /.well-known/acme-challenge/ {',
    `        root ${ACME_WEBROOT};`,
    '        default_type text/plain;',
    ...acmeExemption(c.options),
    '    }',
  ];
}

/** Step 4: port 80 serves the ACME challenge and proxies everything else. */
export function renderHttpSite(input: TSiteInput): string {
  const c = check(input);
  return [
    ...header(c, 'HTTP'),
    'server {',
    ...listen(80, c),
    `    server_name ${c.serverNames};`,
    '',
    ...serverLevel(c.options, false, c.htpasswdPath),
    ...acmeLocation(c),
    '',
    ...routeLocations(c.domain, c.options, c.target, UPGRADE_VARIABLE),
    '}',
    '',
  ].join('\n');
}

/** Step 6: port 80 redirects to HTTPS (ACME path excepted); 443 serves TLS + HTTP/2 and proxies. */
export function renderFinalSite(input: TSiteInput, options: TFinalSiteOptions = {}): string {
  const c = check(input);
  const base = options.letsencryptDir ?? LETSENCRYPT_DIR;
  if (!SAFE_DIR.test(base)) {
    throw new DeployValidationError('letsencryptDir', 'safePath');
  }
  const live = `${base}/live/${certName(c.domain)}`;
  const chain = options.certificate?.chain ?? `${live}/fullchain.pem`;
  const key = options.certificate?.key ?? `${live}/privkey.pem`;
  if (!SAFE_DIR.test(chain) || !SAFE_DIR.test(key)) {
    throw new DeployValidationError('certificate', 'safePath');
  }
  return [
    ...header(c, 'HTTPS'),
    'server {',
    ...listen(80, c),
    `    server_name ${c.serverNames};`,
    '',
    ...acmeLocation(c),
    '',
    '    location / {',
    `        return 301 https://${c.redirectHost}$request_uri;`,
    '    }',
    '}',
    '',
    'server {',
    ...listen(443, c),
    `    server_name ${c.serverNames};`,
    '',
    `    ssl_certificate ${chain};`,
    `    ssl_certificate_key ${key};`,
    '    ssl_protocols TLSv1.2 TLSv1.3;',
    '    ssl_session_timeout 1d;',
    '',
    ...serverLevel(c.options, true, c.htpasswdPath),
    ...acmeLocation(c),
    '',
    ...routeLocations(c.domain, c.options, c.target, UPGRADE_VARIABLE),
    '}',
    '',
  ].join('\n');
}
