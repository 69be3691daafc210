import type { TProxyStatus } from '@portico/shared/proxy/schemas';

export type TAdminBadgeVariant = 'success' | 'warning' | 'destructive' | 'outline';

/** Spec §4 admin list: green completed/deployed, yellow pending/deploying, destructive failed/error. */
export function adminBadgeVariant(status: TProxyStatus | string): TAdminBadgeVariant {
  if (status === 'completed' || status === 'deployed') return 'success';
  if (status === 'pending' || status === 'deploying') return 'warning';
  if (status === 'failed' || status === 'error') return 'destructive';
  return 'outline';
}

/** Proxies by user, most proxies first; ties by username so the order is stable. */
export function sortByProxyCount<T extends { proxyCount: number; username: string }>(
  rows: readonly T[],
): T[] {
  return [...rows].sort(
    (a, b) => b.proxyCount - a.proxyCount || a.username.localeCompare(b.username),
  );
}
