import type { TProxyStatus } from '@portico/shared/proxy/schemas';
import { Loader2Icon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { statusLabelKey, statusTone, TONE_BADGE } from '@/lib/proxy-status';

/** A proxy's status as a badge, in the same colour on every screen (see statusTone). */
export function ProxyStatusBadge({
  status,
  testId = 'proxy-status',
}: {
  status: TProxyStatus;
  testId?: string;
}) {
  const { t } = useTranslation();
  const tone = statusTone(status);
  return (
    <Badge variant={TONE_BADGE[tone]} data-testid={testId} data-status={status} data-tone={tone}>
      {tone === 'running' ? (
        <Loader2Icon className="animate-spin motion-reduce:animate-none" aria-hidden="true" />
      ) : null}
      {t(statusLabelKey(status), { defaultValue: status })}
    </Badge>
  );
}
