import type { TDeploymentLogEntry, TProxyConfiguration } from '@portico/shared/proxy/api';
import { type QueryFunction, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { deploymentLogsKey, proxyKeys } from '@/lib/query-keys';

/**
 * While a run goes on and the log socket is down, the screen following it (wizard, details page)
 * reads the configuration and the logs this often (docs/PRODUCT.md#logs-and-the-live-socket).
 * 3 s, the same as the socket's reconnect delay and the home list's poll: a lost socket costs
 * the viewer at most one reconnect delay of news, for one small read per viewer.
 */
export const DEPLOYMENT_POLL_MS = 3000;

/** The one polling policy: poll while deploying with the socket down, else not at all. */
export function deploymentPollMs(deploying: boolean, socketOpen: boolean): number | false {
  return deploying && !socketOpen ? DEPLOYMENT_POLL_MS : false;
}

/** GET /api/proxy-configurations/{id}; a 404 (not found or not the caller's) is an error. */
export function proxyConfigurationQueryOptions(id: string) {
  return queryOptions<TProxyConfiguration>({
    queryKey: proxyKeys.detail(id),
    queryFn: api.getQueryFn<TProxyConfiguration>({
      on401: 'throw',
    }) as QueryFunction<TProxyConfiguration>,
  });
}

/** GET /api/deployment-logs/{id}: the configuration's log lines of every run, oldest first. */
export function deploymentLogsQueryOptions(id: string) {
  return queryOptions<TDeploymentLogEntry[]>({
    queryKey: deploymentLogsKey(id),
    queryFn: api.getQueryFn<TDeploymentLogEntry[]>({
      on401: 'throw',
    }) as QueryFunction<TDeploymentLogEntry[]>,
  });
}

/**
 * The configuration's logs. The wizard reads them only while polling (`enabled` with `pollMs`);
 * the details page always, again on each mount, and on demand.
 */
export function useDeploymentLogs(
  id: string | null,
  {
    enabled = true,
    pollMs = false,
    refetchOnMount = true,
  }: { enabled?: boolean; pollMs?: number | false; refetchOnMount?: boolean | 'always' } = {},
) {
  return useQuery({
    ...deploymentLogsQueryOptions(id ?? ''),
    enabled: Boolean(id) && enabled,
    refetchInterval: pollMs,
    refetchOnMount,
  });
}
