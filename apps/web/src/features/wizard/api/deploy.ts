import type { TDeployResponse } from '@portico/shared/proxy/api';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';

/** Answers 202 at once; the run is followed over the log socket (docs/PRODUCT.md#deployment). */
export function startDeployment(configurationId: string) {
  return api.requestJson<TDeployResponse>(
    'POST',
    `/api/deploy/${encodeURIComponent(configurationId)}`,
  );
}

export function useStartDeployment() {
  return useMutation({ mutationFn: startDeployment });
}
