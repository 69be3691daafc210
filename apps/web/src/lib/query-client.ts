import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { api } from './api';
import { ApiError } from './api-client';
import { sessionQueryKey } from './query-keys';

const FIVE_MINUTES = 5 * 60 * 1000;

/** Stale and kept 5 minutes, no retries, no polling, refetch on window focus (docs/PRODUCT.md#languages-dates-toasts-limits). */
export function createQueryClient(): QueryClient {
  // A 401 from any other call means the session ended (expired, logged out elsewhere): re-ask
  // who the user is, so the router falls back to the landing page instead of a broken screen.
  const onError = (error: unknown, queryKey?: readonly unknown[]) => {
    if (!(error instanceof ApiError) || error.status !== 401) return;
    if (queryKey?.[0] === sessionQueryKey[0]) return;
    // Signed out already (e.g. a wrong password at login): nothing to re-check.
    if (!client.getQueryData(sessionQueryKey)) return;
    void client.invalidateQueries({ queryKey: sessionQueryKey });
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => onError(error, query.queryKey) }),
    mutationCache: new MutationCache({ onError: (error) => onError(error) }),
    defaultOptions: {
      queries: {
        queryFn: api.getQueryFn({ on401: 'throw' }),
        staleTime: FIVE_MINUTES,
        gcTime: FIVE_MINUTES,
        retry: false,
        refetchInterval: false,
        refetchOnWindowFocus: true,
      },
      mutations: { retry: false },
    },
  });
  return client;
}
