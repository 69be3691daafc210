import type { TProxyStatus } from '@portico/shared/proxy/schemas';

export type TStatusBadgeVariant = 'success' | 'warning' | 'destructive';
export type TStatusIcon = 'completed' | 'failed' | 'deploying' | 'warning';

/** Spec §4 home colours: green for completed, yellow for pending, red for any other status. */
export function statusBadgeVariant(status: TProxyStatus): TStatusBadgeVariant {
  if (status === 'completed') return 'success';
  if (status === 'pending') return 'warning';
  return 'destructive';
}

/** Catalog key of a status label; completed is shown as Active (spec §4). */
export function statusLabelKey(status: TProxyStatus): string {
  return `proxies.status.${status}`;
}

/** Spec §4: a card is continue-able when its status is not completed. */
export function isContinuable(status: TProxyStatus): boolean {
  return status !== 'completed';
}

/** Spec §2 details header: completed check, failed red, deploying spinner, else yellow warning. */
export function statusIcon(status: TProxyStatus): TStatusIcon {
  if (status === 'completed') return 'completed';
  if (status === 'failed' || status === 'error') return 'failed';
  if (status === 'deploying') return 'deploying';
  return 'warning';
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
