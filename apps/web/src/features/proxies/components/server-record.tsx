import type { TLastFailure, TProxyConfiguration, TServerSite } from '@portico/shared/proxy/api';
import { CircleAlertIcon, ServerIcon, TriangleAlertIcon } from 'lucide-react';
import type * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Breakable } from '@/components/ui/breakable';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { formatDateTime, formatDay, formatRelative } from '@/lib/format-date';
import { useLogText } from '@/lib/log-text';
import { dlClass, Row } from './details-sections';

/** Words wrap between words (the row breaks anywhere, for long paths and keys). */
function Words(props: React.ComponentProps<'span'>) {
  return <span className="break-normal [overflow-wrap:anywhere]" {...props} />;
}

function Certificate({ site }: { site: TServerSite }) {
  const { t, i18n } = useTranslation();
  const certificate = site.certificate;
  if (!certificate) return <>{t('proxies.server.noCertificate')}</>;
  const date = formatDay(certificate.expiresAt, i18n.language);
  if (!date) return <>{t('proxies.server.certificateNoDate', { name: certificate.name })}</>;
  return (
    <>
      {t('proxies.server.certificateExpires', {
        name: certificate.name,
        date,
        relative: formatRelative(certificate.expiresAt, i18n.language),
      })}
    </>
  );
}

/** One server and domain Portico wrote to: files, whether nginx loads them, HTTPS, certificate. */
function SiteEntry({ site }: { site: TServerSite }) {
  const { t } = useTranslation();
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
        <Row label={t('proxies.server.checked')}>{formatDateTime(site.checkedAt) ?? ''}</Row>
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

/** The last run's failure, beside what it left on the server; the reason in the screen's language. */
function LastFailure({ failure }: { failure: TLastFailure }) {
  const { t } = useTranslation();
  const words = useLogText();
  const step = t(`proxies.steps.${failure.step}`, { defaultValue: failure.step });
  return (
    <Alert variant="destructive" data-testid="last-failure" data-step={failure.step}>
      <CircleAlertIcon aria-hidden="true" />
      <AlertTitle>{t('proxies.server.lastFailure')}</AlertTitle>
      <AlertDescription className="grid gap-1">
        <p>{t('proxies.server.failedAt', { step, date: formatDateTime(failure.at) ?? '' })}</p>
        <section
          className="max-h-40 overflow-y-auto whitespace-pre-wrap font-mono text-xs [overflow-wrap:anywhere]"
          aria-label={t('proxies.server.lastFailure')}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
          tabIndex={0}
          data-testid="last-failure-message"
        >
          {words.line(failure)}
        </section>
      </AlertDescription>
    </Alert>
  );
}

/**
 * "On the server": the record of what Portico wrote to the server(s) for this proxy, as the
 * engine last saw it, the last successful run, and the last failure beside them. This is what
 * "also remove the site from the server" removes.
 */
export function ServerRecord({ proxy }: { proxy: TProxyConfiguration }) {
  const { t, i18n } = useTranslation();
  const last = formatDateTime(proxy.lastDeployedAt);
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
        {proxy.lastFailure ? <LastFailure failure={proxy.lastFailure} /> : null}
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
