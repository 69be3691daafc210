import type { TProxyConfiguration, TProxyPage } from '@portico/shared/proxy/api';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import * as React from 'react';
import { api } from '@/lib/api';
import { DEPLOYMENT_POLL_MS } from '@/lib/live-deployment/queries';
import { proxyKeys } from '@/lib/query-keys';

/** How often the list is read again while a listed proxy is deploying: the one polling policy. */
export const LIST_DEPLOYING_POLL_MS = DEPLOYMENT_POLL_MS;

/** Cards a page holds: eight rows of the widest grid (three columns), well under the DOM budget. */
export const PROXY_PAGE_SIZE = 24;

/**
 * A redeploy started from a card has no socket on the home page, so the list polls while any
 * proxy is deploying and stops once none is (TanStack re-reads this whenever the data changes).
 */
export function proxiesRefetchInterval(
  data: readonly Pick<TProxyConfiguration, 'status'>[] | undefined,
): number | false {
  return data?.some((proxy) => proxy.status === 'deploying') ? LIST_DEPLOYING_POLL_MS : false;
}

/**
 * GET /api/user/proxy-configurations?limit=…: one page of the caller's proxies with the counts
 * per filter. A page starts after its cursor in the server's keyset order, so reading it again
 * (focus, polling) gives its rows in the same order; new proxies land on the first page only.
 */
export function proxyPageQueryOptions(query: Record<string, string>) {
  return queryOptions<TProxyPage>({
    queryKey: proxyKeys.page(query),
    queryFn: () =>
      api.requestJson<TProxyPage>(
        'GET',
        `${proxyKeys.list[0]}?${new URLSearchParams(query).toString()}`,
      ),
    // The page refetches on mount and on focus even while the cache is fresh.
    refetchOnMount: 'always',
    refetchOnWindowFocus: 'always',
    // The page on screen stays while the next one (a search, a filter) is on its way.
    placeholderData: keepPreviousData,
    refetchInterval: (q) => proxiesRefetchInterval(q.state.data?.items),
  });
}

/**
 * The page, refetched on mount, window focus and when the tab becomes visible again (TanStack's
 * focus manager follows visibility only, so window focus is listened to here).
 */
export function useProxyPage(query: Record<string, string>) {
  const result = useQuery(proxyPageQueryOptions(query));
  const { refetch } = result;
  React.useEffect(() => {
    const onFocus = () => {
      void refetch({ cancelRefetch: false });
    };
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, [refetch]);
  return result;
}

const FIRST = { limit: '1' };

/** How many proxies the caller has in all (the smallest page's total): none shows the create card alone. */
export function useProxyTotal() {
  return useQuery({ ...proxyPageQueryOptions(FIRST), select: (page) => page.total });
}
