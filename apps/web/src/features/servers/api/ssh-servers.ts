import type { TAdminProxyPage } from '@portico/shared/admin/api';
import type { TProxyPage } from '@portico/shared/proxy/api';
import type {
  TDeleteServerWithSitesReport,
  TServerActionReport,
  TSshServer,
  TSshServerCheck,
  TSshServerList,
} from '@portico/shared/ssh-servers/schemas';
import type { TAdoptSitesAnswer, TSiteScan } from '@portico/shared/ssh-servers/site-scan';
import {
  type InfiniteData,
  keepPreviousData,
  type QueryClient,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { api } from '@/lib/api';
import { proxyKeys, sshServerKeys } from '@/lib/query-keys';
import { useServerMutation } from '@/lib/use-ssh-servers';

/** The admin's list of every proxy (its key prefix, as the admin feature's). */
const ADMIN_ALL_PROXIES = '/api/admin/all-proxies';

const path = (id: string, action = '') =>
  `/api/ssh-servers/${encodeURIComponent(id)}${action ? `/${action}` : ''}`;

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
