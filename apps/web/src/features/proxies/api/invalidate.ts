import type { QueryClient } from '@tanstack/react-query';
import { deploymentLogsKey, proxyKeys } from '@/lib/query-keys';
import { certificatesQueryKey } from './certificate';

/**
 * After a write: the list, the configuration (its certificate section too) and its logs are
 * read again, and the certificates' badges.
 */
export async function invalidateProxy(queryClient: QueryClient, id: string): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: proxyKeys.list }),
    queryClient.invalidateQueries({ queryKey: certificatesQueryKey }),
    queryClient.invalidateQueries({ queryKey: proxyKeys.detail(id) }),
    queryClient.invalidateQueries({ queryKey: deploymentLogsKey(id) }),
  ]);
}
