import type { TEditProxyInput, TProxyConfiguration } from '@portico/shared/proxy/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { invalidateProxy } from './invalidate';

export type TEditMode = 'user' | 'admin';

/** PUT /api/user/proxy-configurations/{id}, or the admin twin for an admin edit. */
function updateProxy({
  id,
  input,
  mode = 'user',
}: {
  id: string;
  input: TEditProxyInput;
  mode?: TEditMode;
}) {
  const scope = mode === 'admin' ? 'admin' : 'user';
  return api.requestJson<TProxyConfiguration>(
    'PUT',
    `/api/${scope}/proxy-configurations/${encodeURIComponent(id)}`,
    input,
  );
}

export function useUpdateProxy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProxy,
    onSuccess: (_data, { id }) => invalidateProxy(queryClient, id),
  });
}
