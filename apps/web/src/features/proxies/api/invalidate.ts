import type { QueryClient } from '@tanstack/react-query';
import { deploymentLogsKey, proxyKeys } from '@/lib/query-keys';

/** After a write: the list, the configuration and its logs are read again. */
export async function invalidateProxy(queryClient: QueryClient, id: string): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: proxyKeys.list }),
    queryClient.invalidateQueries({ queryKey: proxyKeys.detail(id) }),
    queryClient.invalidateQueries({ queryKey: deploymentLogsKey(id) }),
  ]);
}
