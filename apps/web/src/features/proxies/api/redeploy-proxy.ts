import type { TDeployResponse } from '@portico/shared/proxy/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { invalidateProxy } from './invalidate';

/** POST /api/proxy-configurations/{id}/redeploy: 202 with the queued deployment (409 if one runs). */
function redeployProxy(id: string) {
  return api.requestJson<TDeployResponse>(
    'POST',
    `/api/proxy-configurations/${encodeURIComponent(id)}/redeploy`,
  );
}

export function useRedeployProxy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: redeployProxy,
    onSuccess: (_data, id) => invalidateProxy(queryClient, id),
  });
}
