import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';

type TAuthOptions = { registration: 'open' | 'closed' };

const authOptionsQueryKey = ['/api/auth/options'] as const;

function authOptionsQueryOptions() {
  return queryOptions({
    queryKey: authOptionsQueryKey,
    queryFn: api.getQueryFn<TAuthOptions>({ on401: 'returnNull' }),
  });
}

export function useAuthOptions() {
  return useQuery(authOptionsQueryOptions());
}
