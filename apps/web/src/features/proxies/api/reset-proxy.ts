import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { invalidateProxy } from './invalidate';

/** PATCH /api/proxy-configurations/{id}/reset: back to pending (409 while deploying). */
function resetProxy(id: string) {
  return api.requestJson<unknown>(
    'PATCH',
    `/api/proxy-configurations/${encodeURIComponent(id)}/reset`,
  );
}

export function useResetProxy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetProxy,
    onSuccess: (_data, id) => invalidateProxy(queryClient, id),
  });
}
