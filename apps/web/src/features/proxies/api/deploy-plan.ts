import { useMutation, useQueryClient } from '@tanstack/react-query';
import { applyPlan } from '@/lib/deploy-plan';
import { invalidateProxy } from './invalidate';

/** Applies a plan from the proxy's pages: the run starts, and the proxy is read again. */
export function useApplyPlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, fingerprint }: { id: string; fingerprint: string }) =>
      applyPlan(id, fingerprint),
    onSuccess: (_data, { id }) => invalidateProxy(queryClient, id),
  });
}
