import type { TSshServer, TSshServerList } from '@portico/shared/ssh-servers/schemas';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';

export const savedServerKeys = {
  list: () => ['ssh-servers', 'list'] as const,
};

/**
 * The caller's saved SSH servers the wizard offers first (its first page: an account holds at
 * most its server limit). Inactive ones are left out: nothing should be deployed to them.
 */
export function useSavedServers() {
  return useQuery({
    queryKey: savedServerKeys.list(),
    queryFn: () => api.requestJson<TSshServerList>('GET', '/api/ssh-servers'),
    select: (list): TSshServer[] => list.servers.filter((s) => s.isActive),
  });
}
