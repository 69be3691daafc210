import type { TProxyConfiguration } from '@portico/shared/proxy/api';
import { KeyRoundIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { BusyButton } from '@/components/ui/busy-button';
import { unavailableReasonKey } from '@/lib/proxy-status';
import { toastOutcome } from '@/lib/toast-outcome';
import { useForgetHostKey } from '../api/forget-host-key';

/**
 * The pinned SSH host key and, when one is pinned, the explicit re-pinning action
 * (docs/PRODUCT.md#secrets-and-host-keys): after a server reinstall the old pin refuses every connection.
 */
export function HostKeyValue({ proxy }: { proxy: TProxyConfiguration }) {
  const { t } = useTranslation();
  const forget = useForgetHostKey();
  const blocked = unavailableReasonKey(proxy, 'forgetHostKey');
  if (!proxy.hostKeyFingerprint) {
    return <span className="text-muted-foreground">{t('proxies.hostKey.notPinned')}</span>;
  }

  const onForget = () =>
    toastOutcome(() => forget.mutateAsync(proxy.id), t, {
      success: t('proxies.hostKey.success'),
      failure: t('proxies.hostKey.error'),
    });

  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
      <span className="font-mono text-xs" data-testid="detail-host-key">
        {proxy.hostKeyFingerprint}
      </span>
      <ConfirmDialog
        testId="forget-host-key"
        title={t('proxies.hostKey.title')}
        description={t('proxies.hostKey.description', {
          fingerprint: proxy.hostKeyFingerprint,
          serverIp: proxy.serverIp,
        })}
        confirm={t('proxies.hostKey.confirm')}
        onConfirm={() => void onForget()}
        unavailable={blocked ? t(blocked) : null}
        trigger={
          <BusyButton
            busy={forget.isPending}
            icon={<KeyRoundIcon aria-hidden="true" />}
            variant="link"
            size="sm"
            className="h-auto p-0 text-xs"
            data-testid="action-forget-host-key"
          >
            {t('proxies.hostKey.forget')}
          </BusyButton>
        }
      />
    </div>
  );
}
