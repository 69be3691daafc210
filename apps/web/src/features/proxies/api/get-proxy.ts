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

export function useProxy(id: string) {
  return useQuery(proxyQueryOptions(id));
}
