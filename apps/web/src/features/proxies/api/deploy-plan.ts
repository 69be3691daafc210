import type { TDeployPlan, TDeployResponse } from '@portico/shared/proxy/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { invalidateProxy } from './invalidate';

const base = (id: string) => `/api/proxy-configurations/${encodeURIComponent(id)}`;

/**
 * POST …/plan: what a deployment would do on the server, read and not written; with
 * `targetServer`, the plan of that edit before it is saved. A mutation: each ask reads the
 * server anew, and nothing is cached.
 */
export function usePlanProxy() {
  return useMutation({
    mutationFn: ({ id, targetServer }: { id: string; targetServer?: string }) =>
      api.requestJson<TDeployPlan>(
        'POST',
        `${base(id)}/plan`,
        targetServer ? { targetServer } : {},
      ),
  });
}

/** POST …/apply: 202 with the queued deployment, which stops if the server changed since. */
export function useApplyPlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, fingerprint }: { id: string; fingerprint: string }) =>
      api.requestJson<TDeployResponse>('POST', `${base(id)}/apply`, { fingerprint }),
    onSuccess: (_data, { id }) => invalidateProxy(queryClient, id),
  });
}
