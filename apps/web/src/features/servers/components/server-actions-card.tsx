import type { TServerActionReport, TSshServer } from '@portico/shared/ssh-servers/schemas';
import { RocketIcon, ShieldCheckIcon } from 'lucide-react';
import * as React from 'react';
import { BusyButton } from '@/components/ui/busy-button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { toastFailure } from '@/lib/toast-outcome';
import { useServersTexts } from '@/lib/use-group-texts';
import { useServerAction } from '../api/ssh-servers';
import { ActionReport } from './action-report';

/** Redeploy all and check all certificates, with what each did to every proxy on the server. */
export function ServerActionsCard({ server }: { server: TSshServer }) {
  const { t } = useServersTexts();
  const redeploy = useServerAction('redeploy-all');
  const certificates = useServerAction('check-certificates');
  const [report, setReport] = React.useState<TServerActionReport | null>(null);
  const busy = redeploy.isPending || certificates.isPending;
  const run = async (action: typeof redeploy) => {
    setReport(null);
    try {
      setReport(await action.mutateAsync(server.id));
    } catch (error) {
      toastFailure(error, t, t('servers.page.actionFailed'));
    }
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('servers.page.actions')}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        <p className="text-sm text-muted-foreground">{t('servers.page.redeployAllHint')}</p>
        <div className="flex flex-wrap gap-2">
          <BusyButton
            busy={redeploy.isPending}
            icon={<RocketIcon aria-hidden="true" />}
            variant="outline"
            onClick={() => void run(redeploy)}
            disabled={busy || server.proxyCount === 0}
            data-testid="server-redeploy-all"
          >
            {t('servers.page.redeployAll')}
          </BusyButton>
          <BusyButton
            busy={certificates.isPending}
            icon={<ShieldCheckIcon aria-hidden="true" />}
            variant="outline"
            onClick={() => void run(certificates)}
            disabled={busy || server.proxyCount === 0}
            data-testid="server-check-certificates"
          >
            {t('servers.page.checkCertificates')}
          </BusyButton>
        </div>
        {report ? <ActionReport results={report.results} /> : null}
      </CardContent>
    </Card>
  );
}
