import type { TProxyStatus } from '@portico/shared/proxy/schemas';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { adminBadgeVariant } from '../lib/badge';

export function AdminStatusBadge({ status }: { status: TProxyStatus }) {
  const { t } = useTranslation();
  const variant = adminBadgeVariant(status);
  return (
    <Badge variant={variant} data-testid="admin-proxy-status" data-variant={variant}>
      {t(`proxies.status.${status}`, { defaultValue: status })}
    </Badge>
  );
}
