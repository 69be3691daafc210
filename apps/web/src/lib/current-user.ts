import type { TPublicUser } from '@portico/shared/auth/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { sessionQueryKey } from '@/lib/query-keys';

export const userQueryKey = sessionQueryKey;

/** The signed-in user, or null when signed out (a 401 is an answer here, not an error). */
export function userQueryOptions() {
  return queryOptions({
    queryKey: userQueryKey,
    queryFn: api.getQueryFn<TPublicUser>({ on401: 'returnNull' }),
    retry: false,
  });
}

export function useUser() {
  return useQuery(userQueryOptions());
}
