import type { TCertificateSummary } from '@portico/shared/certificates/schemas';
import type { TProxyConfiguration } from '@portico/shared/proxy/api';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { ProxyStatusBadge } from '@/components/proxy-status-badge';
import { Breakable } from '@/components/ui/breakable';
import { DataTable, type TColumn } from '@/components/ui/data-table';
import { ExpiryBadge } from '@/components/ui/expiry-badge';
import { detailsHref, isContinuable } from '../lib/status';
import { ContinueButton, ProxyActions } from './proxy-actions';
import { SslBadge } from './status-badge';

type TProps = {
  proxies: TProxyConfiguration[];
  certificates?: ReadonlyMap<string, TCertificateSummary>;
  onEdit: (proxy: TProxyConfiguration) => void;
};

function CertificateCell({ summary }: { summary: TCertificateSummary | undefined }) {
  const { t } = useTranslation();
  if (!summary) return <span className="text-muted-foreground">{t('proxies.na')}</span>;
  return (
    <ExpiryBadge
      state={summary.state}
      daysLeft={summary.daysLeft}
      checkFailed={summary.checkFailed}
      notReloaded={summary.nginxNotReloaded}
    />
  );
}

/**
 * The list as a table: domain, target server, status, SSL status (with the certificate's expiry),
 * actions, Continue Deploy.
 */
export function ProxyTable({ proxies, certificates, onEdit }: TProps) {
  const { t } = useTranslation();
  const columns: TColumn<TProxyConfiguration>[] = [
    {
      key: 'domain',
      header: t('proxies.fields.domain'),
      className: 'max-w-[16rem] font-medium [overflow-wrap:anywhere]',
      cell: (proxy) => (
        <Link
          href={detailsHref(proxy.id)}
          className="rounded-sm text-primary underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          <Breakable text={proxy.domain} />
        </Link>
      ),
    },
    {
      key: 'target',
      header: t('proxies.fields.targetServer'),
      className: 'max-w-[14rem] text-muted-foreground [overflow-wrap:anywhere]',
      cell: (proxy) =>
        proxy.targetServer ? <Breakable text={proxy.targetServer} /> : t('proxies.notSet'),
    },
    {
      key: 'status',
      header: t('proxies.fields.status'),
      cell: (proxy) => <ProxyStatusBadge status={proxy.status} />,
    },
    {
      key: 'ssl',
      header: t('proxies.fields.ssl'),
      cell: (proxy) => <SslBadge configured={proxy.sslConfigured} />,
    },
    {
      key: 'certificate',
      header: t('proxies.fields.certificate'),
      cell: (proxy) => <CertificateCell summary={certificates?.get(proxy.id)} />,
    },
    {
      key: 'actions',
      header: t('proxies.fields.actions'),
      cell: (proxy) => <ProxyActions proxy={proxy} onEdit={onEdit} showContinue={false} compact />,
    },
    {
      key: 'continue',
      header: <span className="sr-only">{t('proxies.actions.continue')}</span>,
      cell: (proxy) =>
        isContinuable(proxy.status) ? <ContinueButton id={proxy.id} domain={proxy.domain} /> : null,
    },
  ];
  return (
    <DataTable
      columns={columns}
      rows={proxies}
      rowKey={(proxy) => proxy.id}
      rowAttributes={(proxy) => ({ 'data-testid': 'proxy-row', 'data-proxy-id': proxy.id })}
      testId="proxy-table"
    />
  );
}
