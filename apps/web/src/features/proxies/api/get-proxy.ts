import type { TProxyConfiguration } from '@portico/shared/proxy/api';
import { type QueryFunction, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';

export const proxyQueryKey = (id: string) => ['/api/proxy-configurations', id] as const;

/** GET /api/proxy-configurations/{id}; a 404 (not found or not the caller's) is an error. */
export function proxyQueryOptions(id: string) {
  return queryOptions<TProxyConfiguration>({
    queryFn: api.getQueryFn<TProxyConfiguration>({
      on401: 'throw',
    }) as QueryFunction<TProxyConfiguration>,
    queryKey: proxyQueryKey(id),
  });
}

/** Polling interval while a deployment runs and the log socket is down (docs/PRODUCT.md#logs-and-the-live-socket). */
export const DEPLOYING_POLL_MS = 5000;

/**
 * The configuration; while it is deploying and `socketUp()` says the live socket is down, it is
 * read again every 5 s so the page never freezes on a lost socket.
 */
export function useProxy(id: string, socketUp: () => boolean = () => true) {
  return useQuery({
    ...proxyQueryOptions(id),
    refetchInterval: (query) =>
      query.state.data?.status === 'deploying' && !socketUp() ? DEPLOYING_POLL_MS : false,
  });
}
