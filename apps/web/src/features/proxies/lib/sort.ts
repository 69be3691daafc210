import type { TCertificateSummary } from '@portico/shared/certificates/schemas';
import type { TProxyConfiguration } from '@portico/shared/proxy/api';

export type TProxySort = 'created' | 'expiry';

/**
 * The list by expiry: soonest first. A proxy whose site was never seen serving a certificate
 * but whose check failed comes first (it is in danger, with no date); proxies without a
 * certificate come last, newest first among themselves as in the default order.
 */
export function sortProxies(
  proxies: readonly TProxyConfiguration[],
  sort: TProxySort,
  certificates: ReadonlyMap<string, TCertificateSummary> | undefined,
): TProxyConfiguration[] {
  if (sort === 'created' || !certificates) return [...proxies];
  const rank = (proxy: TProxyConfiguration) => {
    const summary = certificates.get(proxy.id);
    if (!summary) return Number.POSITIVE_INFINITY;
    return summary.daysLeft ?? Number.NEGATIVE_INFINITY;
  };
  return proxies
    .map((proxy, index) => ({ proxy, index, rank: rank(proxy) }))
    .sort((a, b) => (a.rank === b.rank ? a.index - b.index : a.rank < b.rank ? -1 : 1))
    .map((entry) => entry.proxy);
}
