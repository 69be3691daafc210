import { PAGE_LIMIT_MAX } from '@portico/shared/lists/page';
import type {
  TSshServer,
  TSshServerInput,
  TSshServerList,
  TSshServerPage,
  TSshServerUpdate,
} from '@portico/shared/ssh-servers/schemas';
import {
  type QueryClient,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
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

/**
 * An admin's look at one account's saved servers (GET /api/ssh-servers?userId=): one page of
 * the most an account may hold, under the list's key so the servers' writes refresh it.
 */
export function useAccountSshServers(userId: string | undefined) {
  const query = { userId: userId ?? '', limit: String(PAGE_LIMIT_MAX) };
  return useQuery({
    enabled: userId !== undefined,
    queryKey: [...sshServerKeys.list, 'account', query] as const,
    // Each opening of the dialog offers the servers as they are now.
    refetchOnMount: 'always',
    queryFn: () =>
      api.requestJson<TSshServerPage>(
        'GET',
        `/api/ssh-servers?${new URLSearchParams(query).toString()}`,
      ),
  });
}

async function refresh(client: QueryClient, server?: TSshServer) {
  if (server) client.setQueryData(sshServerKeys.detail(server.id), server);
  await client.invalidateQueries({ queryKey: sshServerKeys.list, exact: true });
}

/** A server changed by an answer: the page shows it at once, the list is read again. */
export function useServerMutation<TInput, TAnswer>(
  run: (input: TInput) => Promise<TAnswer>,
  serverOf: (answer: TAnswer) => TSshServer | undefined,
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: (answer) => refresh(client, serverOf(answer)),
  });
}

export const useCreateSshServer = () =>
  useServerMutation(
    (input: TSshServerInput) => api.requestJson<TSshServer>('POST', '/api/ssh-servers', input),
    (server) => server,
  );

export const useUpdateSshServer = () =>
  useServerMutation(
    ({ id, input }: { id: string; input: TSshServerUpdate }) =>
      api.requestJson<TSshServer>('PATCH', `/api/ssh-servers/${encodeURIComponent(id)}`, input),
    (server) => server,
  );
