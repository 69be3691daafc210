import type { QueryClient } from '@tanstack/react-query';
import { deploymentLogsQueryKey } from './get-deployment-logs';
import { proxiesQueryKey } from './get-proxies';
import { proxyQueryKey } from './get-proxy';

/** After a write: the list, the configuration and its logs are read again. */
export async function invalidateProxy(queryClient: QueryClient, id: string): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: proxiesQueryKey }),
    queryClient.invalidateQueries({ queryKey: proxyQueryKey(id) }),
    queryClient.invalidateQueries({ queryKey: deploymentLogsQueryKey(id) }),
  ]);
}
