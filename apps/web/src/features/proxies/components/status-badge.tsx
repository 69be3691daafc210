import { LockIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';

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
