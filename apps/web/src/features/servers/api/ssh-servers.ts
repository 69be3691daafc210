import type { TAdminProxyPage } from '@portico/shared/admin/api';
import { PAGE_LIMIT_MAX } from '@portico/shared/lists/page';
import type { TProxyPage } from '@portico/shared/proxy/api';
import type {
  TDeleteServerWithSitesReport,
  TServerActionReport,
  TSshServer,
  TSshServerCheck,
  TSshServerInput,
  TSshServerList,
  TSshServerPage,
  TSshServerUpdate,
} from '@portico/shared/ssh-servers/schemas';
import {
  type InfiniteData,
  keepPreviousData,
  type QueryClient,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { api } from '@/lib/api';
import { proxyKeys } from '@/lib/query-keys';

// The saved servers (docs/PRODUCT.md#ssh-servers): one key per endpoint, as in lib/query-keys.
export const sshServerKeys = {
  list: ['/api/ssh-servers'] as const,
  detail: (id: string) => ['/api/ssh-servers', id] as const,
};

/** The admin's list of every proxy (its key prefix, as the admin feature's). */
const ADMIN_ALL_PROXIES = '/api/admin/all-proxies';

const path = (id: string, action = '') =>
  `/api/ssh-servers/${encodeURIComponent(id)}${action ? `/${action}` : ''}`;

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

export function useSshServer(id: string) {
  return useQuery({
    queryKey: sshServerKeys.detail(id),
    queryFn: () => api.requestJson<TSshServer>('GET', path(id)),
  });
}

/** Proxies a server page shows at once: a page of links, well under the DOM budget. */
export const SERVER_PROXY_PAGE_SIZE = 25;

/**
 * One page of the proxies on a saved server (`sshServerId`): the owner's from their own list
 * (under its key, so every write that refreshes home refreshes this), an admin's look at another
 * account's server from the admin's list of all.
 */
export function useServerProxyPage(
  serverId: string,
  query: Record<string, string>,
  scope: 'own' | 'admin',
) {
  const url = scope === 'own' ? proxyKeys.list[0] : ADMIN_ALL_PROXIES;
  const params = { ...query, sshServerId: serverId };
  return useQuery({
    queryKey: scope === 'own' ? proxyKeys.page(params) : [url, 'page', params],
    queryFn: () =>
      api.requestJson<TProxyPage | TAdminProxyPage>(
        'GET',
        `${url}?${new URLSearchParams(params).toString()}`,
      ),
    placeholderData: keepPreviousData,
  });
}

async function refresh(client: QueryClient, server?: TSshServer) {
  if (server) client.setQueryData(sshServerKeys.detail(server.id), server);
  await client.invalidateQueries({ queryKey: sshServerKeys.list, exact: true });
}

/** A server changed by an answer: the page shows it at once, the list is read again. */
function useServerMutation<TInput, TAnswer>(
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
      api.requestJson<TSshServer>('PATCH', path(id), input),
    (server) => server,
  );

export const useCheckSshServer = () =>
  useServerMutation(
    (id: string) => api.requestJson<TSshServerCheck>('POST', path(id, 'check')),
    (answer) => answer.server,
  );

export const useForgetServerHostKey = () =>
  useServerMutation(
    (id: string) => api.requestJson<TSshServer>('POST', path(id, 'forget-host-key')),
    (server) => server,
  );

/** Redeploy all / check all certificates: the per-proxy report; the proxies changed too. */
export function useServerAction(action: 'redeploy-all' | 'check-certificates') {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.requestJson<TServerActionReport>('POST', path(id, action)),
    onSettled: () => client.invalidateQueries({ queryKey: proxyKeys.list }),
  });
}

function dropServer(client: QueryClient, id: string) {
  client.removeQueries({ queryKey: sshServerKeys.detail(id) });
  client.setQueryData<InfiniteData<TSshServerList>>(sshServerKeys.list, (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((p) => ({ ...p, servers: p.servers.filter((s) => s.id !== id) })),
        }
      : data,
  );
}

export function useDeleteSshServer() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.requestJson<unknown>('DELETE', path(id)),
    onSuccess: (_answer, id) => dropServer(client, id),
  });
}

export function useDeleteSshServerWithSites() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, removeCertificates }: { id: string; removeCertificates: boolean }) =>
      api.requestJson<TDeleteServerWithSitesReport>('POST', path(id, 'delete-with-sites'), {
        removeCertificates,
      }),
    onSuccess: async (report, { id }) => {
      if (report.deleted) dropServer(client, id);
      else await client.invalidateQueries({ queryKey: sshServerKeys.detail(id) });
      await client.invalidateQueries({ queryKey: proxyKeys.list });
    },
  });
}
