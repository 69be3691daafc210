import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';

export type TAuthOptions = { registration: 'open' | 'closed' };

export const authOptionsQueryKey = ['/api/auth/options'] as const;

export function authOptionsQueryOptions() {
  return queryOptions({
    queryKey: authOptionsQueryKey,
    queryFn: api.getQueryFn<TAuthOptions>({ on401: 'returnNull' }),
  });
}

export function useAuthOptions() {
  return useQuery(authOptionsQueryOptions());
}
