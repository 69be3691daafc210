import type { TProxyConfiguration } from '@portico/shared/proxy/api';
import { type QueryFunction, queryOptions, useQuery } from '@tanstack/react-query';
import * as React from 'react';
import { api } from '@/lib/api';
import { DEPLOYMENT_POLL_MS } from '@/lib/live-deployment/queries';
import { proxyKeys } from '@/lib/query-keys';

/** How often the list is read again while a listed proxy is deploying: the one polling policy. */
export const LIST_DEPLOYING_POLL_MS = DEPLOYMENT_POLL_MS;

/**
 * A redeploy started from a card has no socket on the home page, so the list polls while any
 * proxy is deploying and stops once none is (TanStack re-reads this whenever the data changes).
 */
export function proxiesRefetchInterval(
  data: readonly Pick<TProxyConfiguration, 'status'>[] | undefined,
): number | false {
  return data?.some((proxy) => proxy.status === 'deploying') ? LIST_DEPLOYING_POLL_MS : false;
}

/** GET /api/user/proxy-configurations: the caller's proxies, newest first. */
export function proxiesQueryOptions() {
  return queryOptions<TProxyConfiguration[]>({
    queryFn: api.getQueryFn<TProxyConfiguration[]>({ on401: 'throw' }) as QueryFunction<
      TProxyConfiguration[]
    >,
    queryKey: proxyKeys.list,
    // The list refetches on mount and on focus even while the cache is fresh.
    refetchOnMount: 'always',
    refetchOnWindowFocus: 'always',
    refetchInterval: (query) => proxiesRefetchInterval(query.state.data),
  });
}

/**
 * The list, refetched on mount, window focus and when the tab becomes visible again (TanStack's
 * focus manager follows visibility only, so window focus is listened to here).
 */
export function useProxies() {
  const query = useQuery(proxiesQueryOptions());
  const { refetch } = query;
  React.useEffect(() => {
    const onFocus = () => {
      void refetch({ cancelRefetch: false });
    };
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, [refetch]);
  return query;
}
