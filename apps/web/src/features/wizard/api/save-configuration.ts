import type { TSaveProxyInput } from '@portico/shared/proxy/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { proxyKeys } from '@/lib/query-keys';

export function saveConfiguration(input: TSaveProxyInput) {
  return api.requestJson<{ id: string }>('POST', '/api/proxy-configurations', input);
}

export function useSaveConfiguration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveConfiguration,
    onSuccess: ({ id }) => queryClient.invalidateQueries({ queryKey: proxyKeys.detail(id) }),
  });
}
