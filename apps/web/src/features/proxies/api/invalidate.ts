import type { QueryClient } from '@tanstack/react-query';
import { certificatesQueryKey } from './certificate';
import { deploymentLogsQueryKey } from './get-deployment-logs';
import { proxiesQueryKey } from './get-proxies';
import { proxyQueryKey } from './get-proxy';

/**
 * After a write: the list, the configuration (its certificate section too) and its logs are
 * read again, and the certificates' badges.
 */
export async function invalidateProxy(queryClient: QueryClient, id: string): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: proxiesQueryKey }),
    queryClient.invalidateQueries({ queryKey: certificatesQueryKey }),
    queryClient.invalidateQueries({ queryKey: proxyQueryKey(id) }),
    queryClient.invalidateQueries({ queryKey: deploymentLogsQueryKey(id) }),
  ]);
}
