import type { TCertificateSummary } from '@portico/shared/certificates/schemas';
import type { TProxyConfiguration } from '@portico/shared/proxy/api';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { ProxyStatusBadge } from '@/components/proxy-status-badge';
import { Breakable } from '@/components/ui/breakable';
import { ExpiryBadge } from '@/components/ui/expiry-badge';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
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
  return (
    <Table data-testid="proxy-table">
      <TableHeader>
        <TableRow>
          <TableHead>{t('proxies.fields.domain')}</TableHead>
          <TableHead>{t('proxies.fields.targetServer')}</TableHead>
          <TableHead>{t('proxies.fields.status')}</TableHead>
          <TableHead>{t('proxies.fields.ssl')}</TableHead>
          <TableHead>{t('proxies.fields.certificate')}</TableHead>
          <TableHead>{t('proxies.fields.actions')}</TableHead>
          <TableHead>
            <span className="sr-only">{t('proxies.actions.continue')}</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {proxies.map((proxy) => (
          <TableRow key={proxy.id} data-testid="proxy-row" data-proxy-id={proxy.id}>
            <TableCell className="max-w-[16rem] font-medium [overflow-wrap:anywhere]">
              <Link
                href={detailsHref(proxy.id)}
                className="rounded-sm text-primary underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
              >
                <Breakable text={proxy.domain} />
              </Link>
            </TableCell>
            <TableCell className="max-w-[14rem] text-muted-foreground [overflow-wrap:anywhere]">
              {proxy.targetServer ? <Breakable text={proxy.targetServer} /> : t('proxies.notSet')}
            </TableCell>
            <TableCell>
              <ProxyStatusBadge status={proxy.status} />
            </TableCell>
            <TableCell>
              <SslBadge configured={proxy.sslConfigured} />
            </TableCell>
            <TableCell>
              <CertificateCell summary={certificates?.get(proxy.id)} />
            </TableCell>
            <TableCell>
              <ProxyActions proxy={proxy} onEdit={onEdit} showContinue={false} compact />
            </TableCell>
            <TableCell>
              {isContinuable(proxy.status) ? (
                <ContinueButton id={proxy.id} domain={proxy.domain} />
              ) : null}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
