import type { TSshServerList } from '@portico/shared/ssh-servers/schemas';
import { useInfiniteQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { sshServerKeys } from '@/lib/query-keys';

// The saved servers' list: the servers page and a proxy's edit dialog both read it.
/** GET /api/ssh-servers, a page at a time (the API pages by cursor). */
export function useSshServers({ enabled = true }: { enabled?: boolean } = {}) {
  return useInfiniteQuery({
    enabled,
    queryKey: sshServerKeys.list,
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) =>
      api.requestJson<TSshServerList>(
        'GET',
        pageParam ? `/api/ssh-servers?after=${encodeURIComponent(pageParam)}` : '/api/ssh-servers',
      ),
    getNextPageParam: (last) => last.nextCursor,
    refetchOnMount: 'always',
  });
}
