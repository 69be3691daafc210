import type { TDestinationServer } from '@portico/shared/proxy/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { destinationServersKey } from '@/lib/query-keys';

function destinationServersQueryOptions() {
  return queryOptions<TDestinationServer[] | null>({
    queryKey: destinationServersKey,
    queryFn: api.getQueryFn<TDestinationServer[]>({ on401: 'throw' }),
  });
}

export function useDestinationServers() {
  return useQuery(destinationServersQueryOptions());
}
