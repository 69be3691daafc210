import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { invalidateProxy } from './invalidate';

/** DELETE /api/proxy-configurations/{id}/host-key: the next connection pins the key it meets. */
export function forgetHostKey(id: string) {
  return api.requestJson<unknown>(
    'DELETE',
    `/api/proxy-configurations/${encodeURIComponent(id)}/host-key`,
  );
}

export function useForgetHostKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: forgetHostKey,
    onSuccess: (_data, id) => invalidateProxy(queryClient, id),
  });
}
