import type { TDeployPlan, TDeployResponse, TPlanInput } from '@portico/shared/proxy/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { invalidateProxy } from './invalidate';

const base = (id: string) => `/api/proxy-configurations/${encodeURIComponent(id)}`;

/**
 * POST …/plan: what a deployment would do on the server, read and not written; with
 * `targetServer` or `options`, the plan of that edit before it is saved. A mutation: each ask reads the
 * server anew, and nothing is cached.
 */
export function usePlanProxy() {
  return useMutation({
    mutationFn: ({ id, ...edit }: { id: string } & TPlanInput) =>
      api.requestJson<TDeployPlan>('POST', `${base(id)}/plan`, {
        ...(edit.targetServer ? { targetServer: edit.targetServer } : {}),
        ...(edit.options ? { options: edit.options } : {}),
      }),
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
