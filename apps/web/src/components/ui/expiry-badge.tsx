import type { TCertificateState } from '@portico/shared/certificates/state';
import { ShieldAlertIcon, ShieldCheckIcon, ShieldXIcon } from 'lucide-react';
import { useCertificateTexts } from '@/lib/use-group-texts';
import { Badge } from './badge';

const VARIANT = { fine: 'success', warning: 'warning', danger: 'destructive' } as const;
const ICON = { fine: ShieldCheckIcon, warning: ShieldAlertIcon, danger: ShieldXIcon } as const;

export interface TExpiryBadgeProps {
  state: TCertificateState;
  /** Whole days left; negative once expired; null when no certificate was ever seen. */
  daysLeft: number | null;
  checkFailed?: boolean;
  notReloaded?: boolean;
}

/**
 * "Expires in N days" in the colour of the certificate's state (the rule is the server's:
 * shared/certificates/state.ts). The state and any trouble are also said in words to assistive
 * technology and on hover, so colour is never the only sign.
 */
export function ExpiryBadge({ state, daysLeft, checkFailed, notReloaded }: TExpiryBadgeProps) {
  const { t } = useCertificateTexts();
  const Icon = ICON[state];
  // A failed check says so: "Expires in 1825 days" in red would say the expiry is the trouble.
  const failed = checkFailed || daysLeft === null;
  const expiry =
    daysLeft === null
      ? null
      : daysLeft < 0
        ? t('certificate.badge.expiredAgo', { count: -daysLeft })
        : daysLeft === 0
          ? t('certificate.badge.expiresToday')
          : t('certificate.badge.expiresIn', { count: daysLeft });
  const text = failed ? t('certificate.badge.checkFailed') : expiry;
  const why = [
    t(`certificate.badge.state.${state}`),
    failed && expiry ? expiry : null,
    notReloaded ? t('certificate.badge.notReloaded') : null,
  ]
    .filter(Boolean)
    .join('; ');
  return (
    <Badge
      variant={VARIANT[state]}
      title={why}
      data-testid="certificate-badge"
      data-state={state}
      data-days={daysLeft ?? undefined}
    >
      <Icon aria-hidden="true" />
      {text}
      <span className="sr-only">{` (${why})`}</span>
    </Badge>
  );
}
