import type { TProxyConfiguration } from '@portico/shared/proxy/api';
import { CopyIcon, ExternalLinkIcon } from 'lucide-react';
import type * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Breakable } from '@/components/ui/breakable';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { LabelledIcon } from '@/components/ui/labelled-icon';
import { WildcardOpen } from '@/components/wildcard-open';
import { useSiteUrl } from '@/lib/dns-challenge';
import { formatMoment } from '@/lib/format-date';
import { siteUrl } from '../lib/status';
import { copyUrl } from './copy-url';
import { HostKeyValue } from './host-key-row';

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
  const { t, i18n } = useTranslation();
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
        <Row label={t('proxies.fields.createdAt')}>
          {formatMoment(proxy.createdAt, i18n.language) ?? na}
        </Row>
        <Row label={t('proxies.fields.hostKey')}>
          <HostKeyValue proxy={proxy} />
        </Row>
        {proxy.nginxConfigPath ? (
          <Row label={t('proxies.fields.nginxConfigPath')} testId="detail-nginx-path">
            <code className="font-mono text-xs">{proxy.nginxConfigPath}</code>
          </Row>
        ) : null}
        {proxy.customScriptName ? (
          <Row label={t('proxies.fields.customScript')}>{proxy.customScriptName}</Row>
        ) : null}
      </dl>
    </DetailsCard>
  );
}

function UrlRow({ url }: { url: string }) {
  const { t } = useTranslation();
  const copy = t('proxies.actions.copyUrlOf', { domain: url });
  const open = t('proxies.actions.openInNewTab', { url });
  return (
    <li className="flex flex-wrap items-center gap-2 rounded-md border border-border px-3 py-2">
      {/* Breaks after a dot or a slash, never inside a word. */}
      <code className="min-w-0 flex-1 font-mono text-sm [overflow-wrap:anywhere]">
        <Breakable text={url} />
      </code>
      <div className="flex gap-1">
        <LabelledIcon label={copy}>
          <Button
            size="icon-sm"
            variant="ghost"
            onClick={() => void copyUrl(url, t)}
            aria-label={copy}
          >
            <CopyIcon aria-hidden="true" />
          </Button>
        </LabelledIcon>
        <LabelledIcon label={open}>
          <Button size="icon-sm" variant="ghost" asChild>
            <a href={url} target="_blank" rel="noopener noreferrer" aria-label={open}>
              <ExternalLinkIcon aria-hidden="true" />
            </a>
          </Button>
        </LabelledIcon>
      </div>
    </li>
  );
}

export function AccessUrls({ proxy }: TProps) {
  const { t } = useTranslation();
  // A wildcard's own address opens nothing: its bare name when the certificate covers it, and
  // a field for any name under it.
  const { host, wildcard } = useSiteUrl(proxy.domain, proxy.id);
  return (
    <DetailsCard title={t('proxies.details.accessUrls')}>
      <ul className="grid gap-2" data-testid="access-urls">
        {host ? (
          <>
            <UrlRow url={siteUrl(host, 'http')} />
            <UrlRow url={siteUrl(host, 'https')} />
          </>
        ) : null}
        {wildcard ? (
          <li className="rounded-md border border-border px-3 py-2">
            <WildcardOpen domain={proxy.domain} idPrefix="details" />
          </li>
        ) : null}
      </ul>
    </DetailsCard>
  );
}
