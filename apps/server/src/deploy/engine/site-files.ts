import { renderFinalSite, renderHttpSite } from '../nginx-site';
import type { TSitePaths } from '../site-names';
import type { TTarget } from '../validate';
import type { TFileWrite, TSiteLink } from './nginx-transaction';

export interface TSiteFilesInput {
  domain: string;
  target: TTarget;
  ipv6: boolean;
  paths: TSitePaths;
  /** A certificate for the domain already exists: step 4 writes the final site at once. */
  hasCertificate: boolean;
  /** The long-domain tuning file, when the server needs it (`serverNamesTuning`). */
  tuning?: TFileWrite;
}

export interface TSiteFiles {
  /** What step 4 (http-site) writes: the tuning first, then the site file. */
  httpStep: TFileWrite[];
  /** What step 6 (https-site) writes. */
  finalStep: TFileWrite[];
  /** The site's enabled link (Debian layout), made by both steps. */
  link?: TSiteLink;
}

/**
 * Which files a deployment writes, with what content, in which step: the one answer the
 * engine writes from (site-steps.ts) and a plan shows (plan-deployment.ts), so a plan is
 * never a second rendering of the template. Pure: no server is asked.
 */
export function siteFiles(input: TSiteFilesInput): TSiteFiles {
  const site = { domain: input.domain, target: input.target, ipv6: input.ipv6 };
  const final = renderFinalSite(site);
  const first = input.hasCertificate ? final : renderHttpSite(site);
  const file = (content: string): TFileWrite => ({ path: input.paths.file, content, mode: 0o644 });
  return {
    httpStep: [...(input.tuning ? [input.tuning] : []), file(first)],
    finalStep: [file(final)],
    ...(input.paths.enabledLink
      ? { link: { target: input.paths.file, link: input.paths.enabledLink } }
      : {}),
  };
}

/** The files as a completed deployment leaves them: each path with its last content. */
export function finalFiles(files: TSiteFiles): TFileWrite[] {
  const last = new Map<string, TFileWrite>();
  for (const f of [...files.httpStep, ...files.finalStep]) last.set(f.path, f);
  return [...last.values()];
}
