import type { TProxyStatus } from '@portico/shared/proxy/schemas';
import { LockIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { statusBadgeVariant, statusLabelKey } from '../lib/status';

export function StatusBadge({ status }: { status: TProxyStatus }) {
  const { t } = useTranslation();
  return (
    <Badge variant={statusBadgeVariant(status)} data-testid="proxy-status" data-status={status}>
      {t(statusLabelKey(status))}
    </Badge>
  );
}

export function SslBadge({ configured }: { configured: boolean }) {
  const { t } = useTranslation();
  if (!configured) {
    return (
      <Badge variant="outline" data-testid="proxy-ssl" data-ssl="false">
        {t('proxies.ssl.notConfigured')}
      </Badge>
    );
  }
  return (
    <Badge variant="success" data-testid="proxy-ssl" data-ssl="true">
      <LockIcon aria-hidden="true" />
      {t('proxies.ssl.enabled')}
    </Badge>
  );
}
