/** Proxies by user, most proxies first; ties by username so the order is stable. */
export function sortByProxyCount<T extends { proxyCount: number; username: string }>(
  rows: readonly T[],
): T[] {
  return [...rows].sort(
    (a, b) => b.proxyCount - a.proxyCount || a.username.localeCompare(b.username),
  );
}
