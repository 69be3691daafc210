import type { TWildcardChoices, TWildcardOffer } from '@portico/shared/certificates/wildcard-use';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './api';
import { certificateUrl } from './certificate-status';
import { proxyKeys } from './query-keys';

// A proxy served with the wildcard certificate another proxy holds on its server (issue 41), as
// the wizard's certificate method and the proxy's certificate section both offer it.

/**
 * GET …/{id}/certificate/wildcards, under the proxy's own key (every write that reads the proxy
 * again reads this again). Kept here, out of query-keys.ts, which the landing page's bundle carries.
 */
export const wildcardChoicesQueryKey = (id: string) =>
  [...proxyKeys.detail(id), 'certificate', 'wildcards'] as const;

export function useWildcardChoices(id: string | null | undefined, enabled = true) {
  return useQuery({
    queryKey: wildcardChoicesQueryKey(id ?? ''),
    queryFn: () => api.requestJson<TWildcardChoices>('GET', `${certificateUrl(id!)}/wildcards`),
    enabled: Boolean(id) && enabled,
  });
}

/**
 * GET /api/certificates/wildcards: the caller's wildcard on `serverIp` covering `domain`, for
 * the wizard, whose proxy may not be saved yet.
 */
export function useWildcardOffer(domain: string, serverIp: string, enabled = true) {
  return useQuery({
    queryKey: ['certificates', 'wildcards', domain, serverIp] as const,
    queryFn: () => {
      const query = new URLSearchParams({ domain, serverIp });
      return api.requestJson<TWildcardOffer>('GET', `/api/certificates/wildcards?${query}`);
    },
    enabled: enabled && domain !== '' && serverIp !== '',
  });
}

/** Serves the proxy with the holder's wildcard certificate from its next deployment on. */
export function useChooseWildcard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, holderId }: { id: string; holderId: string }) =>
      api.requestJson<TWildcardChoices>('PUT', `${certificateUrl(id)}/wildcard`, { holderId }),
    onSuccess: (_answer, { id }) =>
      queryClient.invalidateQueries({ queryKey: proxyKeys.detail(id) }),
  });
}

/** Back to a certificate of the proxy's own. */
export function useStopUsingWildcard(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api.requestJson<{ success: true }>('DELETE', `${certificateUrl(id)}/wildcard`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: proxyKeys.detail(id) }),
  });
}
