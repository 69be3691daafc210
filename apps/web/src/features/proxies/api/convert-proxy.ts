import type { TConvertPlan, TConvertResult } from '@portico/shared/proxy/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { invalidateProxy } from './invalidate';

const base = (id: string) => `/api/proxy-configurations/${encodeURIComponent(id)}/convert`;

/** POST …/convert/plan: what converting the adopted site would change, read and not written. */
export function useConvertPlan() {
  return useMutation({
    mutationFn: ({ id }: { id: string }) =>
      api.requestJson<TConvertPlan>('POST', `${base(id)}/plan`, {}),
  });
}

/** POST …/convert: the site rewritten as planned (or put back); the proxy is read again. */
export function useConvertProxy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, fingerprint }: { id: string; fingerprint: string }) =>
      api.requestJson<TConvertResult>('POST', base(id), { fingerprint }),
    onSuccess: (_data, { id }) => invalidateProxy(queryClient, id),
  });
}
