import { z } from 'zod';
import { ZUuid } from '../proxy/api';
import { ZServerIp, ZSiteDomain } from '../proxy/schemas';
import { isWildcard, WILDCARD_PREFIX, wildcardProblem } from './dns-challenge';

/**
 * A proxy served with the wildcard certificate another proxy of the same owner holds on the
 * same server (issue 41): PUT /api/proxy-configurations/{id}/certificate/wildcard names the
 * holder. A wildcard covers exactly one label: `*.example.com` serves `a.example.com`, never
 * `a.b.example.com` nor `example.com`.
 */

/** The one wildcard that could cover `domain` (`*.` over the name without its first label). */
export function coveringWildcard(domain: string): string | undefined {
  if (isWildcard(domain)) return undefined;
  const dot = domain.indexOf('.');
  if (dot <= 0) return undefined;
  const wildcard = `${WILDCARD_PREFIX}${domain.slice(dot + 1).toLowerCase()}`;
  return wildcardProblem(wildcard) === undefined ? wildcard : undefined;
}

/** Whether the certificate of `wildcard` (`*.example.com`) covers `domain`. */
export function wildcardCovers(wildcard: string, domain: string): boolean {
  return isWildcard(wildcard) && coveringWildcard(domain) === wildcard.toLowerCase();
}

export const ZWildcardUseInput = z.object({
  /** The proxy whose wildcard certificate this proxy is to be served with. */
  holderId: ZUuid,
});
export type TWildcardUseInput = z.infer<typeof ZWildcardUseInput>;

/** A wildcard certificate a proxy may use: its holder, the wildcard, and when it expires. */
export const ZWildcardCertificate = z.object({
  holderId: z.string(),
  domain: z.string(),
  expiresAt: z.string().nullable(),
});
export type TWildcardCertificate = z.infer<typeof ZWildcardCertificate>;

/**
 * GET /api/certificates/wildcards: the caller's wildcard certificate on `serverIp` covering
 * `domain`, for the wizard before the proxy is saved.
 */
export const ZWildcardOfferQuery = z.object({ domain: ZSiteDomain, serverIp: ZServerIp });
export type TWildcardOfferQuery = z.infer<typeof ZWildcardOfferQuery>;

export const ZWildcardOffer = z.object({ available: z.array(ZWildcardCertificate) });
export type TWildcardOffer = z.infer<typeof ZWildcardOffer>;

/** What the certificate method offers: the wildcard in use, and the ones that could be. */
export const ZWildcardChoices = z.object({
  current: ZWildcardCertificate.nullable(),
  available: z.array(ZWildcardCertificate),
});
export type TWildcardChoices = z.infer<typeof ZWildcardChoices>;
