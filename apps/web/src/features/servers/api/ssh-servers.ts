import type { TProxyConfiguration } from '@portico/shared/proxy/api';
import type {
  TDeleteServerWithSitesReport,
  TServerActionReport,
  TSshServer,
  TSshServerCheck,
  TSshServerInput,
  TSshServerList,
  TSshServerUpdate,
} from '@portico/shared/ssh-servers/schemas';
import type { TAdoptSitesAnswer, TSiteScan } from '@portico/shared/ssh-servers/site-scan';
import {
  type InfiniteData,
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

export function useSshServer(id: string) {
  return useQuery({
    queryKey: sshServerKeys.detail(id),
    queryFn: () => api.requestJson<TSshServer>('GET', path(id)),
  });
}

/** The caller's proxies (the list the home page reads), for a server page's links. */
export function useOwnProxies(enabled: boolean) {
  return useQuery({
    queryKey: proxyKeys.list,
    queryFn: () => api.requestJson<TProxyConfiguration[]>('GET', proxyKeys.list[0]),
    enabled,
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

/** "Sites on this server": a read-only scan (nothing is cached: each scan reads the server). */
export const useScanSites = () =>
  useMutation({
    mutationFn: (id: string) => api.requestJson<TSiteScan>('POST', path(id, 'scan')),
  });

/** Adopt as it is: new proxies appear on home and in the server's list. */
export function useAdoptSites() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, serverNames }: { id: string; serverNames: string[] }) =>
      api.requestJson<TAdoptSitesAnswer>('POST', path(id, 'adopt'), { serverNames }),
    onSettled: () => client.invalidateQueries({ queryKey: proxyKeys.list }),
  });
}

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
