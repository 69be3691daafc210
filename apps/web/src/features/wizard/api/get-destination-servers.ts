import type { TDestinationServer } from '@portico/shared/proxy/api';
import { queryOptions, useQuery } from '@tanstack/react-query';

export const destinationServersQueryKey = ['/api/destination-servers'] as const;

export function destinationServersQueryOptions() {
  return queryOptions<TDestinationServer[] | null>({ queryKey: destinationServersQueryKey });
}

export function useDestinationServers() {
  return useQuery(destinationServersQueryOptions());
}
