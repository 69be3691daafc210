import type { TProxyConfiguration } from '@portico/shared/proxy/api';
import { type QueryFunction, queryOptions, useQuery } from '@tanstack/react-query';
import * as React from 'react';
import { api } from '@/lib/api';

/** GET /api/user/proxy-configurations: the caller's proxies, newest first. */
export const proxiesQueryKey = ['/api/user/proxy-configurations'] as const;

/** How often the list is read again while a listed proxy is deploying. */
export const LIST_DEPLOYING_POLL_MS = 3000;

/**
 * A redeploy started from a card has no socket on the home page, so the list polls while any
 * proxy is deploying and stops once none is (TanStack re-reads this whenever the data changes).
 */
export function proxiesRefetchInterval(
  data: readonly Pick<TProxyConfiguration, 'status'>[] | undefined,
): number | false {
  return data?.some((proxy) => proxy.status === 'deploying') ? LIST_DEPLOYING_POLL_MS : false;
}

export function proxiesQueryOptions() {
  return queryOptions<TProxyConfiguration[]>({
    queryFn: api.getQueryFn<TProxyConfiguration[]>({ on401: 'throw' }) as QueryFunction<
      TProxyConfiguration[]
    >,
    queryKey: proxiesQueryKey,
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
