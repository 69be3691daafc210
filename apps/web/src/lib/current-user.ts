import type { TPublicUser } from '@portico/shared/auth/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { ApiError } from '@/lib/api-client';
import { sessionQueryKey } from '@/lib/query-keys';

export const userQueryKey = sessionQueryKey;

/** Waits before the session check's second, third and fourth tries. */
export const SESSION_RETRY_DELAYS_MS = [500, 1000, 2000] as const;

/**
 * Worth another try: no answer at all, or a server error (5xx). A 4xx other than 401 (which
 * means signed out) is an answer that will not change on its own.
 */
export function sessionCheckRetries(failures: number, error: unknown): boolean {
  if (failures >= SESSION_RETRY_DELAYS_MS.length) return false;
  return !(error instanceof ApiError) || error.status >= 500;
}

/**
 * The signed-in user, or null when signed out (a 401 is an answer here, not an error). A check
 * that failed otherwise (the server down or answering 500) is tried again a few times: only
 * a 401 means the visitor is signed out.
 */
export function userQueryOptions() {
  return queryOptions({
    queryKey: userQueryKey,
    queryFn: api.getQueryFn<TPublicUser>({ on401: 'returnNull' }),
    retry: sessionCheckRetries,
    retryDelay: (failures) => SESSION_RETRY_DELAYS_MS[failures] ?? 2000,
  });
}

export function useUser() {
  return useQuery(userQueryOptions());
}
