import type { TProxyConfiguration, TServerSite } from '@portico/shared/proxy/api';
import { ServerIcon, TriangleAlertIcon } from 'lucide-react';
import type * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Breakable } from '@/components/ui/breakable';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { formatMoment, formatRelative } from '@/lib/format-date';
import { useCertificateTexts } from '@/lib/use-group-texts';
import { dlClass, Row } from './details-sections';

/** Words wrap between words (the row breaks anywhere, for long paths and keys). */
function Words(props: React.ComponentProps<'span'>) {
  return <span className="break-normal [overflow-wrap:anywhere]" {...props} />;
}

/** The uploaded certificate's chain file on the server (the key beside it is root's alone). */
function Uploaded({ path }: { path: string }) {
  const { t } = useCertificateTexts();
  return (
    <span className="grid gap-1" data-testid="server-site-uploaded">
      <span>{t('certificate.section.method.uploaded')}</span>
      <code className="font-mono text-xs">
        <Breakable text={path} />
      </code>
    </span>
  );
}

/**
 * The certificate's name (certbot's) and the uploaded one's file; how long it is valid is the
 * certificate section's (one place).
 */
function Certificate({ site }: { site: TServerSite }) {
  const { t } = useTranslation();
  if (site.uploaded) {
    return (
      <>
        <Uploaded path={site.uploaded.path} />
        {site.certificate ? <span className="block">{site.certificate.name}</span> : null}
      </>
    );
  }
  return <>{site.certificate ? site.certificate.name : t('proxies.server.noCertificate')}</>;
}

/** One server and domain Portico wrote to: files, whether nginx loads them, HTTPS, certificate. */
function SiteEntry({ site }: { site: TServerSite }) {
  const { t, i18n } = useTranslation();
  return (
    <section
      className="grid gap-3 rounded-md border border-border p-3"
      data-testid="server-site"
      data-domain={site.domain}
      aria-label={site.domain}
    >
      <dl className={dlClass}>
        <Row label={t('proxies.server.where')} testId="server-site-where">
          <code className="font-mono text-xs">
            <Breakable text={`${site.sshUser}@${site.serverIp}:${site.sshPort}`} />
          </code>
        </Row>
        <Row label={t('proxies.server.domain')}>
          <Words>
            <Breakable text={site.domain} />
          </Words>
        </Row>
        {site.files.length > 0 ? (
          <Row label={t('proxies.server.files')} testId="server-site-files">
            <ul className="grid gap-1">
              {site.files.map((file) => (
                <li key={file}>
                  <code className="font-mono text-xs">
                    <Words>
                      <Breakable text={file} />
                    </Words>
                  </code>
                </li>
              ))}
            </ul>
            <p
              className="mt-1 text-xs text-muted-foreground"
              data-testid="server-site-enabled"
              data-enabled={site.enabled}
            >
              {site.enabled ? t('proxies.server.enabled') : t('proxies.server.notEnabled')}
            </p>
          </Row>
        ) : null}
        <Row label={t('proxies.server.https')} testId="server-site-https">
          <Words data-https={site.https}>
            {site.https ? t('proxies.server.httpsOn') : t('proxies.server.httpsOff')}
          </Words>
        </Row>
        <Row label={t('proxies.server.certificate')} testId="server-site-certificate">
          <Words>
            <Certificate site={site} />
          </Words>
        </Row>
        <Row label={t('proxies.server.checked')}>
          {formatMoment(site.checkedAt, i18n.language) ?? ''}
        </Row>
      </dl>
      {site.unconfirmed ? (
        <Alert variant="warning" data-testid="server-site-unconfirmed">
          <TriangleAlertIcon aria-hidden="true" />
          <AlertDescription>{t('proxies.server.unconfirmed')}</AlertDescription>
        </Alert>
      ) : null}
    </section>
  );
}

/**
 * "On the server": the record of what Portico wrote to the server(s) for this proxy, as the
 * engine last saw it, and the last successful run (the last failure heads the page, in the
 * summary). This is what "also remove the site from the server" removes.
 */
export function ServerRecord({ proxy }: { proxy: TProxyConfiguration }) {
  const { t, i18n } = useTranslation();
  const last = formatMoment(proxy.lastDeployedAt, i18n.language);
  return (
    <Card data-testid="server-record">
      <CardHeader>
        <div className="flex items-center gap-2">
          <ServerIcon className="size-5 text-muted-foreground" aria-hidden="true" />
          <CardTitle>{t('proxies.server.title')}</CardTitle>
        </div>
        <CardDescription>{t('proxies.server.description')}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <dl className={dlClass}>
          <Row label={t('proxies.fields.lastDeployed')} testId="server-last-success">
            {last
              ? `${last} (${formatRelative(proxy.lastDeployedAt, i18n.language)})`
              : t('proxies.never')}
          </Row>
        </dl>
        {proxy.serverSites.length === 0 ? (
          <p className="text-sm text-muted-foreground" data-testid="server-record-empty">
            {t('proxies.server.empty')}
          </p>
        ) : (
          proxy.serverSites.map((site) => (
            <SiteEntry key={`${site.serverIp}:${site.sshPort}/${site.domain}`} site={site} />
          ))
        )}
      </CardContent>
    </Card>
  );
}
