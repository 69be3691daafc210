import type { TProxyConfiguration } from '@portico/shared/proxy/api';
import { CopyIcon, ExternalLinkIcon, ShieldCheckIcon, ShieldOffIcon } from 'lucide-react';
import type * as React from 'react';
import { useTranslation } from 'react-i18next';
import { ProxyStatusBadge } from '@/components/proxy-status-badge';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { formatDateMinutes, formatDateTime, formatDay, formatRelative } from '@/lib/format-date';
import { siteUrl } from '../lib/status';
import { copyUrl } from './copy-url';
import { HostKeyValue } from './host-key-row';
import { SslBadge } from './status-badge';

type TProps = { proxy: TProxyConfiguration };

/**
 * How a value breaks when wider than its column: `all` anywhere (names and addresses, in the
 * medium weight of a value), `anywhere` between words first, only long words anywhere (sentences,
 * in the body weight).
 */
const WRAP = {
  all: 'break-all font-medium',
  anywhere: '[overflow-wrap:anywhere]',
} as const;

/** A label and its value in the details page's lists. */
export function Row({
  label,
  children,
  testId,
  wrap = 'all',
}: {
  label: string;
  children: React.ReactNode;
  testId?: string;
  wrap?: keyof typeof WRAP;
}) {
  return (
    <>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className={`min-w-0 ${WRAP[wrap]}`} data-testid={testId}>
        {children}
      </dd>
    </>
  );
}

export const dlClass = 'grid gap-x-4 gap-y-2.5 text-sm sm:grid-cols-[11rem_1fr]';

/** A titled card of the details page. */
function DetailsCard({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

/** Basic Information: never the password (write-only). */
export function BasicInformation({ proxy }: TProps) {
  const { t } = useTranslation();
  const na = t('proxies.na');
  return (
    <DetailsCard title={t('proxies.details.basicInfo')}>
      <dl className={dlClass} data-testid="basic-info">
        <Row label={t('proxies.fields.domain')}>{proxy.domain}</Row>
        <Row label={t('proxies.fields.serverIp')} testId="detail-server-ip">
          {proxy.serverIp}
        </Row>
        <Row label={t('proxies.fields.sshUser')}>{proxy.sshUser}</Row>
        <Row label={t('proxies.fields.sshPort')}>{proxy.sshPort}</Row>
        <Row label={t('proxies.fields.email')}>{proxy.email}</Row>
        <Row label={t('proxies.fields.targetServer')} testId="detail-target">
          {proxy.targetServer ?? t('proxies.notSet')}
        </Row>
        <Row label={t('proxies.fields.createdAt')}>{formatDateTime(proxy.createdAt) ?? na}</Row>
        <Row label={t('proxies.fields.hostKey')}>
          <HostKeyValue proxy={proxy} />
        </Row>
        {proxy.customScriptName ? (
          <Row label={t('proxies.fields.customScript')}>{proxy.customScriptName}</Row>
        ) : null}
      </dl>
    </DetailsCard>
  );
}

/** Status, SSL and changes; the last successful run is in "On the server" (server-record). */
export function CurrentStatus({ proxy }: TProps) {
  const { t } = useTranslation();
  return (
    <DetailsCard title={t('proxies.details.currentStatus')}>
      <dl className={dlClass} data-testid="current-status">
        <Row label={t('proxies.fields.status')}>
          <ProxyStatusBadge status={proxy.status} />
        </Row>
        <Row label={t('proxies.fields.ssl')}>
          <SslBadge configured={proxy.sslConfigured} />
        </Row>
        {proxy.nginxConfigPath ? (
          <Row label={t('proxies.fields.nginxConfigPath')} testId="detail-nginx-path">
            <code className="font-mono text-xs">{proxy.nginxConfigPath}</code>
          </Row>
        ) : null}
        <Row label={t('proxies.fields.changedSinceDeploy')} testId="detail-changed">
          {proxy.changedSinceDeploy ? (
            <Badge variant="warning">{t('proxies.yes')}</Badge>
          ) : (
            t('proxies.no')
          )}
        </Row>
      </dl>
    </DetailsCard>
  );
}

function UrlRow({ url }: { url: string }) {
  const { t } = useTranslation();
  return (
    <li className="flex flex-wrap items-center gap-2 rounded-md border border-border px-3 py-2">
      <code className="min-w-0 flex-1 break-all font-mono text-sm">{url}</code>
      <div className="flex gap-1">
        <Button
          size="icon-sm"
          variant="ghost"
          onClick={() => void copyUrl(url, t)}
          aria-label={t('proxies.actions.copyUrlOf', { domain: url })}
        >
          <CopyIcon aria-hidden="true" />
        </Button>
        <Button size="icon-sm" variant="ghost" asChild>
          <a
            href={url}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={t('proxies.actions.openInNewTab', { url })}
          >
            <ExternalLinkIcon aria-hidden="true" />
          </a>
        </Button>
      </div>
    </li>
  );
}

export function AccessUrls({ proxy }: TProps) {
  const { t } = useTranslation();
  return (
    <DetailsCard title={t('proxies.details.accessUrls')}>
      <ul className="grid gap-2" data-testid="access-urls">
        <UrlRow url={siteUrl(proxy.domain, 'http')} />
        <UrlRow url={siteUrl(proxy.domain, 'https')} />
      </ul>
    </DetailsCard>
  );
}

/**
 * SSL certificate card: badge, last update yyyy-MM-dd HH:mm (or N/A), certificate expiry as the
 * last deployment read it. How urgent it is, and what is served now, is the certificate
 * section's (the watch).
 */
export function SslCard({ proxy }: TProps) {
  const { t, i18n } = useTranslation();
  const na = t('proxies.na');
  const expiry = formatDay(proxy.certificateExpiresAt, i18n.language);
  return (
    <Card data-testid="ssl-card">
      <CardHeader className="flex-row items-center gap-2">
        {proxy.sslConfigured ? (
          <ShieldCheckIcon className="size-5 text-success" aria-hidden="true" />
        ) : (
          <ShieldOffIcon className="size-5 text-muted-foreground" aria-hidden="true" />
        )}
        <CardTitle>{t('proxies.details.sslCertificate')}</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-2 text-sm">
          <dt className="text-muted-foreground">{t('proxies.fields.status')}</dt>
          <dd>
            <SslBadge configured={proxy.sslConfigured} />
          </dd>
          <dt className="text-muted-foreground">{t('proxies.fields.lastUpdated')}</dt>
          <dd>{formatDateMinutes(proxy.updatedAt) ?? na}</dd>
          <dt className="text-muted-foreground">{t('proxies.fields.certificateExpires')}</dt>
          <dd data-testid="ssl-expiry">
            {expiry
              ? `${expiry} (${formatRelative(proxy.certificateExpiresAt, i18n.language)})`
              : na}
          </dd>
        </dl>
      </CardContent>
    </Card>
  );
}
