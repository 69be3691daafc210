import type {
  TAdminProxyPage,
  TAdminUserPage,
  ZProxiesByUser,
  ZUserStats,
} from '@portico/shared/admin/api';
import type { TBackupStatus } from '@portico/shared/admin/backups';
import type { TUserLimits } from '@portico/shared/admin/limits';
import type { TAttentionPage } from '@portico/shared/certificates/schemas';
import type { TDestinationServer } from '@portico/shared/proxy/api';
import {
  keepPreviousData,
  type QueryFunction,
  queryOptions,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '@/lib/api';
import { destinationServersKey } from '@/lib/query-keys';

// Reads of the admin screens: one query key per endpoint, the generic fetcher (README).
function read<T>() {
  return api.getQueryFn<T>({ on401: 'throw' }) as QueryFunction<T>;
}

export const userStatsKey = ['/api/admin/stats/users'] as const;
export const proxiesByUserKey = ['/api/admin/stats/proxies-by-user'] as const;
export const allProxiesKey = ['/api/admin/all-proxies'] as const;
export const adminUsersKey = ['/api/admin/users'] as const;
export const certificatesAttentionKey = ['/api/admin/certificates'] as const;
export const backupStatusKey = ['/api/admin/backups/status'] as const;

type TUserStats = z.infer<typeof ZUserStats>;
type TProxiesByUser = z.infer<typeof ZProxiesByUser>;

export const useUserStats = () =>
  useQuery(queryOptions({ queryKey: userStatsKey, queryFn: read<TUserStats>() }));

export const useProxiesByUser = () =>
  useQuery(queryOptions({ queryKey: proxiesByUserKey, queryFn: read<TProxiesByUser>() }));

/**
 * One page of an admin list (`query`: its list parameters), under the list's key so the
 * invalidations of its writes reach every page; the page on screen stays while the next loads.
 */
function usePage<T>(key: readonly [string], query: Record<string, string>) {
  return useQuery(
    queryOptions({
      queryKey: [...key, 'page', query],
      queryFn: () =>
        api.requestJson<T>('GET', `${key[0]}?${new URLSearchParams(query).toString()}`),
      placeholderData: keepPreviousData,
    }),
  );
}

export const useBackupStatus = () =>
  useQuery(queryOptions({ queryKey: backupStatusKey, queryFn: read<TBackupStatus>() }));
export const useAllProxiesPage = (query: Record<string, string>) =>
  usePage<TAdminProxyPage>(allProxiesKey, query);

export const useAdminUsersPage = (query: Record<string, string>) =>
  usePage<TAdminUserPage>(adminUsersKey, query);

/** One account's limits: read when its dialog opens, never kept for another account. */
export const userLimitsKey = (id: string) => ['/api/admin/users', id, 'limits'] as const;
export const useUserLimits = (id: string | null) =>
  useQuery(
    queryOptions({
      queryKey: userLimitsKey(id ?? ''),
      queryFn: () =>
        api.requestJson<TUserLimits>('GET', `/api/admin/users/${encodeURIComponent(id!)}/limits`),
      enabled: id !== null,
    }),
  );

export const useCertificatesNeedingAttention = (query: Record<string, string>) =>
  usePage<TAttentionPage>(certificatesAttentionKey, query);

export const destinationWriteKey = ['destination-write'] as const;
/** Longer than the server's probe may take (5 s): a status not in by then waits for the cron. */
const PROBE_WAIT_MS = 10_000;
const PROBE_POLL_MS = 1_000;

/**
 * The destinations. The server probes one as soon as it is saved, after answering: while an
 * active destination is still unknown shortly after a save here, the list is read again every
 * second, so its status shows without a reload.
 */
export function useDestinations() {
  const queryClient = useQueryClient();
  return useQuery(
    queryOptions({
      queryKey: destinationServersKey,
      queryFn: read<TDestinationServer[]>(),
      refetchInterval: (query) => {
        const waiting = query.state.data?.some((d) => d.isActive && d.status === 'unknown');
        if (!waiting) return false;
        const saves = queryClient
          .getMutationCache()
          .findAll({ mutationKey: destinationWriteKey, status: 'success' })
          .map((m) => m.state.submittedAt);
        return Date.now() - Math.max(0, ...saves) < PROBE_WAIT_MS ? PROBE_POLL_MS : false;
      },
    }),
  );
}
