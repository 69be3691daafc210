import type { TDeploymentLogEntry } from '@portico/shared/proxy/api';
import { type QueryFunction, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';

export const deploymentLogsQueryKey = (id: string) => ['/api/deployment-logs', id] as const;

/** GET /api/deployment-logs/{id}: the configuration's log lines, oldest first. */
export function deploymentLogsQueryOptions(id: string) {
  return queryOptions<TDeploymentLogEntry[]>({
    queryFn: api.getQueryFn<TDeploymentLogEntry[]>({ on401: 'throw' }) as QueryFunction<
      TDeploymentLogEntry[]
    >,
    queryKey: deploymentLogsQueryKey(id),
    refetchOnMount: 'always',
  });
}

export function useDeploymentLogs(id: string) {
  return useQuery(deploymentLogsQueryOptions(id));
}
