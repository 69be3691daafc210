import type { TProxyConfiguration } from '@portico/shared/proxy/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';

export const configurationQueryKey = (id: string) => ['/api/proxy-configurations', id] as const;

export function configurationQueryOptions(id: string) {
  return queryOptions<TProxyConfiguration | null>({
    queryKey: configurationQueryKey(id),
    queryFn: api.getQueryFn<TProxyConfiguration>({ on401: 'throw' }),
  });
}

/** One configuration; `pollMs` polls it while the log socket is down (docs/PRODUCT.md#logs-and-the-live-socket). */
export function useConfiguration(id: string | null, { pollMs }: { pollMs?: number | false } = {}) {
  return useQuery({
    ...configurationQueryOptions(id ?? ''),
    enabled: Boolean(id),
    refetchInterval: pollMs ?? false,
  });
}
