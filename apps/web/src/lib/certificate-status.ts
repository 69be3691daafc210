import type { TCertificateStatus } from '@portico/shared/certificates/schemas';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from './api';

// The certificate of one proxy, read by the details page and the wizard's last step.

export const certificateUrl = (id: string) =>
  `/api/proxy-configurations/${encodeURIComponent(id)}/certificate`;

/**
 * Under the proxy's own key (['/api/proxy-configurations', id]), so every write that reads the
 * proxy again reads this again too; by language, since its sentences come in the screen's.
 */
export const certificateQueryKey = (id: string, language: string) =>
  ['/api/proxy-configurations', id, 'certificate', language] as const;

/** How often it is read again while a check or an action is under way. */
export const CERTIFICATE_POLL_MS = 1500;

function busy(data: TCertificateStatus | undefined): boolean {
  const action = data?.lastAction?.status;
  return !!data?.checkPending || action === 'queued' || action === 'running';
}

/** An action held by a limit is read again once the first of them may run: it lets go then. */
function untilReleased(data: TCertificateStatus | undefined, now = Date.now()): number | false {
  const holds = [data?.held.renew, data?.held.renew_test].flatMap((hold) =>
    hold ? [Date.parse(hold.retryAt)] : [],
  );
  if (holds.length === 0) return false;
  return Math.max(1000, Math.min(...holds) - now + 1000);
}

export function useCertificate(id: string | undefined) {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: certificateQueryKey(id ?? '', i18n.language),
    queryFn: () => api.requestJson<TCertificateStatus>('GET', certificateUrl(id!)),
    enabled: Boolean(id),
    refetchInterval: (query) =>
      busy(query.state.data) ? CERTIFICATE_POLL_MS : untilReleased(query.state.data),
  });
}
