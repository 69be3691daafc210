import type { TSshServer } from '@portico/shared/ssh-servers/schemas';
import { RocketIcon, ShieldCheckIcon } from 'lucide-react';
import { BusyButton } from '@/components/ui/busy-button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { toastFailure } from '@/lib/toast-outcome';
import { useServersTexts } from '@/lib/use-group-texts';
import { isRunActive, useLatestServerRun, useStartServerRun } from '../api/ssh-servers';
import { ServerRunProgress } from './server-run-progress';

/**
 * Redeploy all and check all certificates: each starts a background run on the server, shown
 * as it goes (read again every few seconds) and after a reload; the buttons wait while it runs.
 */
export function ServerActionsCard({ server }: { server: TSshServer }) {
  const { t } = useServersTexts();
  const latest = useLatestServerRun(server.id);
  const start = useStartServerRun(server.id);
  const run = latest.data?.run ?? null;
  const active = isRunActive(run);
  const busy = active || start.isPending || latest.isPending;
  const begin = async (action: 'redeploy-all' | 'check-certificates') => {
    try {
      await start.mutateAsync(action);
    } catch (error) {
      toastFailure(error, t, t('servers.page.actionFailed'));
    }
  };
  const spinning = (kind: 'redeploy' | 'check-certificates') =>
    (active && run?.kind === kind) ||
    (start.isPending && start.variables === (kind === 'redeploy' ? 'redeploy-all' : kind));
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('servers.page.actions')}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        <p className="text-sm text-muted-foreground">{t('servers.page.redeployAllHint')}</p>
        <div className="flex flex-wrap gap-2">
          <BusyButton
            busy={spinning('redeploy')}
            icon={<RocketIcon aria-hidden="true" />}
            variant="outline"
            onClick={() => void begin('redeploy-all')}
            disabled={busy || server.proxyCount === 0}
            data-testid="server-redeploy-all"
          >
            {t('servers.page.redeployAll')}
          </BusyButton>
          <BusyButton
            busy={spinning('check-certificates')}
            icon={<ShieldCheckIcon aria-hidden="true" />}
            variant="outline"
            onClick={() => void begin('check-certificates')}
            disabled={busy || server.proxyCount === 0}
            data-testid="server-check-certificates"
          >
            {t('servers.page.checkCertificates')}
          </BusyButton>
        </div>
        {run ? <ServerRunProgress run={run} /> : null}
      </CardContent>
    </Card>
  );
}
