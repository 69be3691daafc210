import type {
  TAdminProxyRow,
  TAdminUser,
  ZProxiesByUser,
  ZUserStats,
} from '@portico/shared/admin/api';
import type { TAttentionRow } from '@portico/shared/certificates/schemas';
import type { TDestinationServer } from '@portico/shared/proxy/api';
import { type QueryFunction, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '@/lib/api';

// Reads of the admin screens: one query key per endpoint, the generic fetcher (README).
function read<T>() {
  return api.getQueryFn<T>({ on401: 'throw' }) as QueryFunction<T>;
}

export const userStatsKey = ['/api/admin/stats/users'] as const;
export const proxiesByUserKey = ['/api/admin/stats/proxies-by-user'] as const;
export const allProxiesKey = ['/api/admin/all-proxies'] as const;
export const adminUsersKey = ['/api/admin/users'] as const;
export const destinationsKey = ['/api/destination-servers'] as const;
export const certificatesAttentionKey = ['/api/admin/certificates'] as const;

export type TUserStats = z.infer<typeof ZUserStats>;
export type TProxiesByUser = z.infer<typeof ZProxiesByUser>;

export const useUserStats = () =>
  useQuery(queryOptions({ queryKey: userStatsKey, queryFn: read<TUserStats>() }));

export const useProxiesByUser = () =>
  useQuery(queryOptions({ queryKey: proxiesByUserKey, queryFn: read<TProxiesByUser>() }));

export const useAllProxies = () =>
  useQuery(queryOptions({ queryKey: allProxiesKey, queryFn: read<TAdminProxyRow[]>() }));

export const useAdminUsers = () =>
  useQuery(queryOptions({ queryKey: adminUsersKey, queryFn: read<TAdminUser[]>() }));

export const useDestinations = () =>
  useQuery(queryOptions({ queryKey: destinationsKey, queryFn: read<TDestinationServer[]>() }));

export const useCertificatesNeedingAttention = () =>
  useQuery(queryOptions({ queryKey: certificatesAttentionKey, queryFn: read<TAttentionRow[]>() }));
