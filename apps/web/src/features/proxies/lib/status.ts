import type { TProxyStatus } from '@portico/shared/proxy/schemas';

/** A card is continue-able when its status is not completed (docs/PRODUCT.md#proxy-states-and-transitions). */
export function isContinuable(status: TProxyStatus): boolean {
  return status !== 'completed';
}

export function continueHref(id: string): string {
  return `/proxy-wizard?continueId=${encodeURIComponent(id)}`;
}

export function detailsHref(id: string): string {
  return `/proxy-details/${encodeURIComponent(id)}`;
}

export function siteUrl(domain: string, scheme: 'http' | 'https' = 'https'): string {
  return `${scheme}://${domain}`;
}
