import type { TDeployPlan, TDeployResponse, TPlanInput } from '@portico/shared/proxy/api';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';

// A deployment's plan, read and not written: the proxy's edit and details (features/proxies) and
// the wizard's deploy step all ask for it.

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
export function applyPlan(id: string, fingerprint: string): Promise<TDeployResponse> {
  return api.requestJson<TDeployResponse>('POST', `${base(id)}/apply`, { fingerprint });
}
