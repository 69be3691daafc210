import type { TSaveProxyInput } from '@portico/shared/proxy/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { proxyKeys } from '@/lib/query-keys';

/** The request: user and port are the server's own when a saved server is named. */
type TSaveRequest = Omit<TSaveProxyInput, 'sshUser' | 'sshPort'> &
  Partial<Pick<TSaveProxyInput, 'sshUser' | 'sshPort'>>;

export function saveConfiguration(input: TSaveRequest) {
  return api.requestJson<{ id: string }>('POST', '/api/proxy-configurations', input);
}

export function useSaveConfiguration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveConfiguration,
    onSuccess: ({ id }) => queryClient.invalidateQueries({ queryKey: proxyKeys.detail(id) }),
  });
}
