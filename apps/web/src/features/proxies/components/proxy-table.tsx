import type { TCertificateSummary } from '@portico/shared/certificates/schemas';
import type { TProxyConfiguration } from '@portico/shared/proxy/api';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { ProxySummary } from '@/components/proxy-summary';
import { Breakable } from '@/components/ui/breakable';
import { DataTable, type TColumn } from '@/components/ui/data-table';
import { summaryOfProxy } from '@/lib/proxy-summary';
import { detailsHref } from '../lib/status';
import { ProxyActions } from './proxy-actions';

type TProps = {
  proxies: TProxyConfiguration[];
  certificates?: ReadonlyMap<string, TCertificateSummary>;
  onEdit: (proxy: TProxyConfiguration) => void;
};

/**
 * The list as a table: domain, target server, the proxy's summary (its state, its certificate
 * while served, why the last run failed) and the actions, each with its word.
 */
export function ProxyTable({ proxies, certificates, onEdit }: TProps) {
  const { t } = useTranslation();
  const columns: TColumn<TProxyConfiguration>[] = [
    {
      key: 'domain',
      header: t('proxies.fields.domain'),
      // Domains break only at their dots and dashes; the other columns give way first.
      className: 'min-w-[14rem] max-w-[22rem] font-medium',
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
      className: 'max-w-[12rem] text-muted-foreground [overflow-wrap:anywhere]',
      cell: (proxy) =>
        proxy.targetServer ? <Breakable text={proxy.targetServer} /> : t('proxies.notSet'),
    },
    {
      key: 'status',
      header: t('proxies.fields.status'),
      className: 'min-w-[12rem] max-w-[20rem]',
      cell: (proxy) => (
        <ProxySummary summary={summaryOfProxy(proxy, certificates?.get(proxy.id))} compact />
      ),
    },
    {
      key: 'actions',
      header: t('proxies.fields.actions'),
      cell: (proxy) => <ProxyActions proxy={proxy} onEdit={onEdit} />,
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
