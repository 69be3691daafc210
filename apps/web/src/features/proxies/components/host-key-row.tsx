import type { TProxyConfiguration } from '@portico/shared/proxy/api';
import { KeyRoundIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
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
          <Button
            variant="link"
            size="sm"
            className="h-auto p-0 text-xs"
            disabled={forget.isPending}
            data-testid="action-forget-host-key"
          >
            {forget.isPending ? (
              <Spinner className="size-3" />
            ) : (
              <KeyRoundIcon aria-hidden="true" />
            )}
            {t('proxies.hostKey.forget')}
          </Button>
        }
      />
    </div>
  );
}
