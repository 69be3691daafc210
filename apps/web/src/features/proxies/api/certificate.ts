import type {
  TCustomCertificate,
  TCustomCertificateInput,
} from '@portico/shared/certificates/custom';
import type { TCertificateAction, TCertificateSummary } from '@portico/shared/certificates/schemas';
import type { TDeployResponse } from '@portico/shared/proxy/api';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { certificateUrl } from '@/lib/certificate-status';
import { proxyKeys } from '@/lib/query-keys';

type TSummary = TCertificateSummary & { configurationId: string };

/** GET /api/certificates: the caller's certificates, for the list's badges. */
export const certificatesQueryKey = ['/api/certificates'] as const;

/** The certificates of the proxies on the page (`ids`), read once the page is there. */
export function useCertificateSummaries(ids: readonly string[] | undefined) {
  const joined = ids?.join(',') ?? '';
  return useQuery({
    queryKey: [...certificatesQueryKey, joined],
    queryFn: () =>
      api.requestJson<TSummary[]>('GET', `/api/certificates?ids=${encodeURIComponent(joined)}`),
    enabled: joined !== '',
    select: (rows) => new Map(rows.map((row) => [row.configurationId, row])),
    refetchOnWindowFocus: 'always',
    placeholderData: keepPreviousData,
  });
}

export function useCheckCertificate(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.requestJson<{ queued: true }>('POST', `${certificateUrl(id)}/check`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: proxyKeys.detail(id) }),
  });
}

const ACTION_PATHS: Record<TCertificateAction, string> = {
  renew_test: 'renew-test',
  renew: 'renew',
};

/**
 * Test renewal or Renew now: 202 with the run, whose output streams into the log. Read again
 * after a refusal too: one at its limit (429) then shows as held, with the time it may run again.
 */
export function useCertificateAction(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: TCertificateAction) =>
      api.requestJson<TDeployResponse>('POST', `${certificateUrl(id)}/${ACTION_PATHS[action]}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: proxyKeys.detail(id) }),
  });
}

/** Your own certificate (PUT …/certificate/custom): stored after the server's checks. */
export function useUploadCertificate(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TCustomCertificateInput) =>
      api.requestJson<TCustomCertificate>('PUT', `${certificateUrl(id)}/custom`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: proxyKeys.detail(id) }),
  });
}

/** Forgets the upload: the next deployment serves the CA's certificate again. */
export function useRemoveUploadedCertificate(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.requestJson<{ success: true }>('DELETE', `${certificateUrl(id)}/custom`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: proxyKeys.detail(id) }),
  });
}
