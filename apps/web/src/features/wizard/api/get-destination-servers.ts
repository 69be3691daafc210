import type { TDestinationServer } from '@portico/shared/proxy/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';

export const destinationServersQueryKey = ['/api/destination-servers'] as const;

function destinationServersQueryOptions() {
  return queryOptions<TDestinationServer[] | null>({
    queryKey: destinationServersQueryKey,
    queryFn: api.getQueryFn<TDestinationServer[]>({ on401: 'throw' }),
  });
}

export function useDestinationServers() {
  return useQuery(destinationServersQueryOptions());
}
