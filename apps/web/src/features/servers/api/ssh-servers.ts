import type { TAdminProxyPage } from '@portico/shared/admin/api';
import type { TProxyPage } from '@portico/shared/proxy/api';
import type {
  TDeleteServerWithSitesReport,
  TLatestServerRun,
  TServerRun,
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

/** GET …/runs/latest: the server's latest background run ("redeploy all", "check all"). */
const latestRunKey = (id: string) => [...sshServerKeys.detail(id), 'runs', 'latest'] as const;
/** How often the page reads a run that is still queued or running. */
export const RUN_POLL_MS = 2000;

export const isRunActive = (run: TServerRun | null | undefined) =>
  run?.state === 'queued' || run?.state === 'running';

/** The server's latest run, read again every RUN_POLL_MS while it is unfinished. */
export function useLatestServerRun(id: string) {
  const client = useQueryClient();
  return useQuery({
    queryKey: latestRunKey(id),
    queryFn: async () => {
      const answer = await api.requestJson<TLatestServerRun>('GET', path(id, 'runs/latest'));
      // A run that just ended changed the proxies (statuses, certificates): read them again.
      const before = client.getQueryData<TLatestServerRun>(latestRunKey(id))?.run;
      if (isRunActive(before) && !isRunActive(answer.run)) {
        void client.invalidateQueries({ queryKey: proxyKeys.list });
      }
      return answer;
    },
    refetchInterval: (query) => (isRunActive(query.state.data?.run) ? RUN_POLL_MS : false),
  });
}

/** The next page of a run's per-proxy results, after the position `after`. */
export const readServerRunPage = (id: string, runId: string, after: number) =>
  api.requestJson<TServerRun>(
    'GET',
    `${path(id, `runs/${encodeURIComponent(runId)}`)}?after=${after}`,
  );

/** Starts "redeploy all" or "check all certificates": the answer is the run, shown at once. */
export function useStartServerRun(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (action: 'redeploy-all' | 'check-certificates') =>
      api.requestJson<TServerRun>('POST', path(id, action)),
    onSuccess: (run) => client.setQueryData<TLatestServerRun>(latestRunKey(id), { run }),
    // Refused because one is running (409): show that one.
    onError: () => client.invalidateQueries({ queryKey: latestRunKey(id) }),
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
