import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { ApiError } from '@/lib/api-client';
import { deploymentLogsKey, proxyKeys } from '@/lib/query-keys';

type TDeleteProxyInput = {
  id: string;
  removeFromServer: boolean;
  removeCertificate: boolean;
};

/**
 * DELETE /api/proxy-configurations/{id}?removeFromServer=…&removeCertificate=…; removal over SSH
 * runs first.
 */
function deleteProxy({ id, removeFromServer, removeCertificate }: TDeleteProxyInput) {
  const query = `removeFromServer=${removeFromServer}&removeCertificate=${removeCertificate}`;
  return api.requestJson<unknown>(
    'DELETE',
    `/api/proxy-configurations/${encodeURIComponent(id)}?${query}`,
  );
}

// 502 server_unreachable, 502 remove_failed (reached, but the removal failed) and 400
// remove_needs_password (no password saved for the server the site is on): either way the site
// could not be removed, and the user must still be able to delete the configuration, so "delete
// from Portico only" is offered.
const PORTICO_ONLY_CODES = new Set([
  'server_unreachable',
  'remove_failed',
  'remove_needs_password',
]);

export function offersPorticoOnly(error: unknown): boolean {
  return error instanceof ApiError && PORTICO_ONLY_CODES.has(error.body?.code ?? '');
}

export function useDeleteProxy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteProxy,
    onSuccess: async (_data, { id }) => {
      queryClient.removeQueries({ queryKey: proxyKeys.detail(id) });
      queryClient.removeQueries({ queryKey: deploymentLogsKey(id) });
      await queryClient.invalidateQueries({ queryKey: proxyKeys.list });
    },
  });
}
