import type { TProxyOptions } from '@portico/shared/proxy/options';
import { renderFinalSite, renderHttpSite } from '../nginx-site';
import { htpasswdPath, type TSitePaths } from '../site-names';
import type { TTarget } from '../validate';
import type { TFileWrite, TSiteLink } from './nginx-writes';

/** What the site file serves: the target, and the proxy's options with what they need. */
export interface TSiteBody {
  target: TTarget;
  options: TProxyOptions;
  /** PORTICO_ALLOW_CUSTOM_NGINX. */
  allowAdvanced: boolean;
  /** The basic-auth users' file (site-names.ts htpasswdPath). */
  htpasswdPath: string;
  /** A wildcard site also serves the name under it (DNS-01 with the apex). */
  apex?: boolean;
}

export function siteBodyOf(
  domain: string,
  target: TTarget,
  options: TProxyOptions | null | undefined,
  allowAdvanced: boolean | undefined,
  extra: { apex?: boolean } = {},
): TSiteBody {
  return {
    target,
    options: options ?? {},
    allowAdvanced: allowAdvanced ?? false,
    htpasswdPath: htpasswdPath(domain),
    ...(extra.apex ? { apex: true } : {}),
  };
}

/** The basic-auth users' file as the http-site step writes it (`user:$6$…` lines). */
export function htpasswdContent(options: TProxyOptions): string {
  return (options.basicAuth ?? []).map((u) => `${u.username}:${u.passwordHash}\n`).join('');
}

export interface TSiteFilesInput {
  domain: string;
  body: TSiteBody;
  ipv6: boolean;
  paths: TSitePaths;
  /** A certificate for the domain already exists: step 4 writes the final site at once. */
  hasCertificate: boolean;
  /** The long-domain tuning file, when the server needs it (`serverNamesTuning`). */
  tuning?: TFileWrite;
  /** An uploaded certificate's files, served instead of certbot's. */
  certificate?: { chain: string; key: string };
}

export interface TSiteFiles {
  /**
   * What step 4 (http-site) writes in one transaction: the basic-auth users' file (removed when
   * the site has no users), the tuning, then the site file.
   */
  httpStep: TFileWrite[];
  /** What step 6 (https-site) writes. */
  finalStep: TFileWrite[];
  /** The site's enabled link (Debian layout), made by both steps. */
  link?: TSiteLink;
  /** How many basic-auth users the users' file holds. */
  users: number;
}

/**
 * Which files a deployment writes, with what content, in which step: the one answer the
 * engine writes from (site-steps.ts) and a plan shows (plan-deployment.ts), so a plan is
 * never a second rendering of the template. Pure: no server is asked.
 */
export function siteFiles(input: TSiteFilesInput): TSiteFiles {
  const site = { domain: input.domain, ...input.body, ipv6: input.ipv6 };
  const users = htpasswdContent(input.body.options);
  const final = renderFinalSite(site, input.certificate ? { certificate: input.certificate } : {});
  const first = input.hasCertificate ? final : renderHttpSite(site);
  const file = (content: string): TFileWrite => ({ path: input.paths.file, content, mode: 0o644 });
  // Root and nginx's group only; without users the file goes, in the same nginx -t gate.
  const htpasswd: TFileWrite = {
    path: input.body.htpasswdPath,
    content: users,
    mode: 0o640,
    way: users ? 'private' : 'remove',
  };
  return {
    httpStep: [htpasswd, ...(input.tuning ? [input.tuning] : []), file(first)],
    finalStep: [file(final)],
    ...(input.paths.enabledLink
      ? { link: { target: input.paths.file, link: input.paths.enabledLink } }
      : {}),
    users: input.body.options.basicAuth?.length ?? 0,
  };
}

/** The files as a completed deployment leaves them: each path with its last content. */
export function finalFiles(files: TSiteFiles): TFileWrite[] {
  const last = new Map<string, TFileWrite>();
  const all = [...files.httpStep, ...files.finalStep];
  for (const f of all) last.set(f.path, f);
  return [...last.values()];
}
