import type { TCertificateSummary } from '@portico/shared/certificates/schemas';
import { maskHost } from '@portico/shared/masking';
import type { TProxyConfiguration } from '@portico/shared/proxy/api';
import { KeyRoundIcon, RefreshCwIcon, TriangleAlertIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { ProxySummary } from '@/components/proxy-summary';
import { Breakable } from '@/components/ui/breakable';
import { BusyButton } from '@/components/ui/busy-button';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Unavailable } from '@/components/ui/unavailable';
import { formatDay } from '@/lib/format-date';
import { hasDeployCredential, unavailableReason } from '@/lib/proxy-status';
import { summaryOfProxy } from '@/lib/proxy-summary';
import { continueHref, detailsHref } from '../lib/status';
import { ProxyActions } from './proxy-actions';
import { useRedeployAction } from './use-redeploy-action';

type TProps = {
  proxy: TProxyConfiguration;
  /** The certificate as the watch last saw it, when the proxy serves HTTPS. */
  certificate?: TCertificateSummary;
  onEdit: (proxy: TProxyConfiguration) => void;
};

/**
 * One proxy. The domain is a link stretched over the whole card (a click anywhere opens the
 * details, the keyboard reaches one link); the buttons sit above it, never inside it.
 * Addresses are masked here (docs/PRODUCT.md#masking): the list is what ends up in screenshots; the details page
 * shows them in full.
 */
export function ProxyCard({ proxy, certificate, onEdit }: TProps) {
  const { t, i18n } = useTranslation();
  const redeploy = useRedeployAction();
  const host = maskHost(proxy.serverIp);
  const redeployBlocked = unavailableReason(t, proxy, 'redeploy');
  return (
    <Card
      className="relative flex w-full min-w-0 flex-col gap-4 p-5 transition-shadow hover:shadow-md focus-within:shadow-md"
      data-testid="proxy-card"
      data-proxy-id={proxy.id}
    >
      <h3 className="min-w-0 text-base font-semibold [overflow-wrap:anywhere]">
        <Link
          href={detailsHref(proxy.id)}
          className="rounded-sm outline-none after:absolute after:inset-0 after:rounded-lg focus-visible:after:ring-2 focus-visible:after:ring-ring"
          data-testid="proxy-card-link"
        >
          <Breakable text={proxy.domain} />
        </Link>
      </h3>
      <ProxySummary summary={summaryOfProxy(proxy, certificate)} saysChanges />
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1.5 text-sm">
        <dt className="text-muted-foreground">{t('proxies.fields.targetServer')}</dt>
        <dd className="min-w-0 font-medium [overflow-wrap:anywhere]" data-testid="proxy-target">
          {proxy.targetServer ? <Breakable text={proxy.targetServer} /> : t('proxies.notSet')}
        </dd>
        <dt className="text-muted-foreground">{t('proxies.fields.serverIp')}</dt>
        <dd className="min-w-0 break-all font-mono text-xs leading-5">{host}</dd>
        <dt className="text-muted-foreground">{t('proxies.fields.ssh')}</dt>
        <dd className="min-w-0 break-all font-mono text-xs leading-5">
          {proxy.sshUser}@{host}
        </dd>
        <dt className="text-muted-foreground">{t('proxies.fields.created')}</dt>
        <dd>{formatDay(proxy.createdAt, i18n.language) ?? t('proxies.na')}</dd>
      </dl>
      {proxy.changedSinceDeploy ? (
        <div
          className="relative z-10 grid gap-2 rounded-md border border-yellow-200 bg-warning-soft px-3 py-2 text-sm text-warning"
          data-testid="proxy-changed"
        >
          <p className="flex items-start gap-2">
            <TriangleAlertIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            <span className="min-w-0">{t('proxies.changedSinceDeploy')}</span>
          </p>
          {hasDeployCredential(proxy) ? null : (
            <p className="min-w-0">{t('proxies.passwordNeeded.text')}</p>
          )}
          {hasDeployCredential(proxy) ? (
            <Unavailable reason={redeployBlocked}>
              <BusyButton
                busy={redeploy.isPending}
                icon={<RefreshCwIcon aria-hidden="true" />}
                size="sm"
                variant="outline"
                className="justify-self-start"
                onClick={() => void redeploy.run(proxy.id)}
                data-testid="proxy-redeploy"
              >
                {t('proxies.actions.redeploy')}
              </BusyButton>
            </Unavailable>
          ) : (
            <Button asChild size="sm" variant="outline" className="justify-self-start">
              <Link href={continueHref(proxy.id)} data-testid="proxy-enter-password">
                <KeyRoundIcon aria-hidden="true" />
                {t('proxies.passwordNeeded.action')}
              </Link>
            </Button>
          )}
        </div>
      ) : null}
      <div className="mt-auto">
        <ProxyActions proxy={proxy} onEdit={onEdit} />
      </div>
    </Card>
  );
}
