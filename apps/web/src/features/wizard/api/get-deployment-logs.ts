import type { TDeploymentLogEntry } from '@portico/shared/proxy/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';

export const deploymentLogsQueryKey = (id: string) => ['/api/deployment-logs', id] as const;

export function deploymentLogsQueryOptions(id: string) {
  return queryOptions<TDeploymentLogEntry[] | null>({
    queryKey: deploymentLogsQueryKey(id),
    queryFn: api.getQueryFn<TDeploymentLogEntry[]>({ on401: 'throw' }),
  });
}

/** The configuration's logs; only fetched (and polled) while the log socket is down. */
export function useDeploymentLogs(id: string | null, { pollMs }: { pollMs: number | false }) {
  return useQuery({
    ...deploymentLogsQueryOptions(id ?? ''),
    enabled: Boolean(id) && pollMs !== false,
    refetchInterval: pollMs,
  });
}
