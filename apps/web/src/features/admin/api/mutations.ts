import type { TAdminUser } from '@portico/shared/admin/api';
import type { TDestinationInput, TDestinationUpdate } from '@portico/shared/admin/destinations';
import type { TUserLimits, TUserLimitsChange } from '@portico/shared/admin/limits';
import type { TRole } from '@portico/shared/auth/schemas';
import type { TDestinationServer } from '@portico/shared/proxy/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { destinationServersKey } from '@/lib/query-keys';
import {
  adminUsersKey,
  destinationWriteKey,
  proxiesByUserKey,
  userLimitsKey,
  userStatsKey,
} from './queries';

const enc = encodeURIComponent;

/** PATCH /api/admin/users/{id}/role; 409 last_admin when the last admin would be demoted. */
export function useChangeRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, role }: { id: string; role: TRole }) =>
      api.requestJson<TAdminUser>('PATCH', `/api/admin/users/${enc(id)}/role`, { role }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminUsersKey }),
        queryClient.invalidateQueries({ queryKey: userStatsKey }),
        queryClient.invalidateQueries({ queryKey: proxiesByUserKey }),
      ]),
  });
}

/** PUT /api/admin/users/{id}/limits: each kind given is set, null goes back to the default. */
export function useChangeLimits() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, change }: { id: string; change: TUserLimitsChange }) =>
      api.requestJson<TUserLimits>('PUT', `/api/admin/users/${enc(id)}/limits`, change),
    onSuccess: (limits, { id }) => queryClient.setQueryData(userLimitsKey(id), limits),
  });
}

function useDestinationWrite<TVars>(fn: (vars: TVars) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: destinationWriteKey,
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: destinationServersKey }),
  });
}

export const useCreateDestination = () =>
  useDestinationWrite((input: TDestinationInput) =>
    api.requestJson<TDestinationServer>('POST', '/api/admin/destination-servers', input),
  );

export const useUpdateDestination = () =>
  useDestinationWrite(({ id, input }: { id: string; input: TDestinationUpdate }) =>
    api.requestJson<TDestinationServer>('PUT', `/api/admin/destination-servers/${enc(id)}`, input),
  );

export const useDeleteDestination = () =>
  useDestinationWrite((id: string) =>
    api.requestJson<unknown>('DELETE', `/api/admin/destination-servers/${enc(id)}`),
  );
