import { QueryClient } from '@tanstack/react-query';
import { api } from './api';

const FIVE_MINUTES = 5 * 60 * 1000;

/** Spec §9: stale and kept 5 minutes, no retries, no polling, refetch on window focus. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
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
}
