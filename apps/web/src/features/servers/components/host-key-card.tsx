import type { TSshServer } from '@portico/shared/ssh-servers/schemas';
import { KeyRoundIcon } from 'lucide-react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { BusyButton } from '@/components/ui/busy-button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { toastOutcome } from '@/lib/toast-outcome';
import { useServersTexts } from '@/lib/use-group-texts';
import { useForgetServerHostKey } from '../api/ssh-servers';

/**
 * The server's pinned host key and "Forget key" after a confirmation (docs/PRODUCT.md#ssh-servers):
 * after a reinstall the old pin refuses every connection to it.
 */
export function HostKeyCard({ server }: { server: TSshServer }) {
  const { t } = useServersTexts();
  const forget = useForgetServerHostKey();
  const fingerprint = server.hostKeyFingerprint;
  const onForget = () =>
    toastOutcome(() => forget.mutateAsync(server.id), t, {
      success: t('servers.page.forgotten'),
      failure: t('servers.page.forgetFailed'),
    });
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('servers.page.hostKey')}</CardTitle>
      </CardHeader>
      <CardContent>
        {fingerprint ? (
          <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
            <span className="font-mono text-xs break-all" data-testid="server-host-key">
              {fingerprint}
            </span>
            <ConfirmDialog
              testId="server-forget-key"
              title={t('servers.page.forgetTitle')}
              description={t('servers.page.forgetDescription', { host: server.host, fingerprint })}
              confirm={t('servers.page.forgetKey')}
              onConfirm={() => void onForget()}
              trigger={
                <BusyButton
                  busy={forget.isPending}
                  icon={<KeyRoundIcon aria-hidden="true" />}
                  variant="outline"
                  size="sm"
                  data-testid="server-forget-key"
                >
                  {t('servers.page.forgetKey')}
                </BusyButton>
              }
            />
          </div>
        ) : (
          <p className="text-sm text-muted-foreground" data-testid="server-host-key-none">
            {t('servers.page.hostKeyNotPinned')}
          </p>
        )}
      </CardContent>
    </Card>
  );
}
