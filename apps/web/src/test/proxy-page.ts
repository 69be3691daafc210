import type { TCertificateSummary } from '@portico/shared/certificates/schemas';
import type { TProxyConfiguration, TProxyPage } from '@portico/shared/proxy/api';
import { PROXY_STATUSES } from '@portico/shared/proxy/schemas';
import { vi } from 'vitest';

// The home list's reads for component tests: pages of the caller's proxies and the certificates.

export type TSummaryRow = TCertificateSummary & { configurationId: string };

export const LIST_URL = '/api/user/proxy-configurations?';

/** A page as the server answers it: these items, the counts of a list that holds only them. */
export function pageOf<T extends Pick<TProxyConfiguration, 'status'> = TProxyConfiguration>(
  items: T[],
  nextCursor: string | null = null,
): Omit<TProxyPage, 'items'> & { items: T[] } {
  const status = Object.fromEntries(
    PROXY_STATUSES.map((s) => [s, items.filter((p) => p.status === s).length]),
  ) as TProxyPage['counts']['status'];
  return {
    items,
    nextCursor,
    total: items.length,
    counts: { status, certificate: { expiring: 0, expired: 0, renewal_failing: 0 } },
  };
}

/** The list parameters of each page read, in order. */
export function pageReads(fetchMock: ReturnType<typeof serveProxyPages>): Record<string, string>[] {
  return fetchMock.mock.calls
    .map(([url]) => String(url))
    .filter((url) => url.startsWith(LIST_URL))
    .map((url) => Object.fromEntries(new URLSearchParams(url.slice(LIST_URL.length))));
}

export function serveProxyPages(
  lists: (TProxyConfiguration[] | TProxyPage)[],
  certificates: TSummaryRow[] = [],
) {
  let call = 0;
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (url) => {
    if (String(url).startsWith('/api/certificates?ids=')) {
      const ids = decodeURIComponent(String(url).split('=')[1] ?? '').split(',');
      return Response.json(certificates.filter((row) => ids.includes(row.configurationId)));
    }
    if (!String(url).startsWith(LIST_URL)) throw new Error(`unexpected ${url}`);
    const list = lists[Math.min(call, lists.length - 1)]!;
    call += 1;
    return Response.json(Array.isArray(list) ? pageOf(list) : list);
  });
}
