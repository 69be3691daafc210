import type { TCertificateStatus } from '@portico/shared/certificates/schemas';
import type { TProxyConfiguration } from '@portico/shared/proxy/api';
import { TriangleAlertIcon } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Breakable } from '@/components/ui/breakable';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useCertificate } from '@/lib/certificate-status';
import { formatMoment, formatRelative } from '@/lib/format-date';
import { useCertificateTexts } from '@/lib/use-group-texts';
import { CertificateActions } from './certificate-actions';
import { dlClass, Row } from './details-sections';
import { DnsChallengeSection } from './dns-challenge-section';
import { UploadedCertificate } from './uploaded-certificate';
import { WildcardUseSection } from './wildcard-use-section';

function LastCheck({ status, domain }: { status: TCertificateStatus; domain: string }) {
  const { t, i18n } = useCertificateTexts();
  const { check } = status;
  if (!check) return <>{t(status.checkPending ? 'certificate.section.checking' : 'proxies.na')}</>;
  return (
    <div className="grid gap-1">
      <span>
        {formatMoment(check.checkedAt, i18n.language)} (
        {formatRelative(check.checkedAt, i18n.language)})
        {status.checkPending ? ` · ${t('certificate.section.checking')}` : ''}
      </span>
      <span data-testid="certificate-check-result" data-ok={check.ok}>
        {check.ok ? (
          <Badge variant="success">{t('certificate.section.checkOk', { domain })}</Badge>
        ) : (
          <>
            <Badge variant="destructive">{t('certificate.section.checkFailed')}</Badge>{' '}
            <span className="text-destructive">{check.problem}</span>
          </>
        )}
      </span>
    </div>
  );
}

function Renewal({ status }: { status: TCertificateStatus }) {
  const { t } = useCertificateTexts();
  const { renewal } = status;
  if (!renewal) return <>{t('certificate.section.renewalUnknown')}</>;
  return (
    <div className="grid gap-1" data-working={renewal.working} data-method={renewal.method}>
      <span className="flex flex-wrap items-center gap-1.5">
        <Badge variant={renewal.working ? 'success' : 'destructive'}>
          {t(
            renewal.working
              ? 'certificate.section.renewalWorking'
              : 'certificate.section.renewalBroken',
          )}
        </Badge>
        <span>
          {t(`certificate.section.method.${renewal.method}`)}
          {renewal.where ? ` (${renewal.where})` : ''}
          {renewal.setUpByPortico ? ` · ${t('certificate.section.setUpByPortico')}` : ''}
        </span>
      </span>
      {renewal.notes.length > 0 ? (
        <ul className="grid list-disc gap-0.5 pl-5 text-muted-foreground">
          {renewal.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/**
 * The certificate as Portico sees it served (the watch, every 6 hours and on demand), what
 * certbot holds on the server, how the server renews it, and the actions (issue 15).
 */
export function CertificateSection({
  proxy,
  live,
  onRunStarted,
}: {
  proxy: TProxyConfiguration;
  /** The server serves the proxy's HTTPS site (its record says so); else nothing is claimed. */
  live: boolean;
  onRunStarted: () => void;
}) {
  const { t, i18n } = useCertificateTexts();
  const query = useCertificate(proxy.id);
  const status = live ? query.data : undefined;
  const served = status?.served;
  const moment = (value: string) => formatMoment(value, i18n.language);
  return (
    <Card data-testid="certificate-section">
      <CardHeader>
        <CardTitle>{t('certificate.section.title')}</CardTitle>
        {/* The domain is one long word at times (a hand-written site's name): it may break. */}
        <CardDescription className="[overflow-wrap:anywhere]">
          {t('certificate.section.description', { domain: proxy.domain })}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {!live ? (
          <p className="text-sm text-muted-foreground" data-testid="certificate-not-live">
            {t('certificate.section.notLive')}
          </p>
        ) : query.isPending ? (
          <Skeleton className="h-24 w-full" />
        ) : status ? (
          <>
            {status.state ? null : (
              <p className="text-sm text-muted-foreground" data-testid="certificate-none">
                {t('certificate.section.none')}
              </p>
            )}
            {status.nginxNotReloaded && status.onServer ? (
              <Alert variant="warning" data-testid="certificate-not-reloaded">
                <TriangleAlertIcon aria-hidden="true" />
                <AlertTitle>{t('certificate.section.notReloadedTitle')}</AlertTitle>
                <AlertDescription>
                  {t('certificate.section.notReloaded', {
                    date: moment(status.onServer.notBefore),
                  })}
                </AlertDescription>
              </Alert>
            ) : null}
            <dl className={dlClass}>
              {served ? (
                <>
                  <Row
                    wrap="anywhere"
                    label={t('certificate.section.issuer')}
                    testId="certificate-issuer"
                  >
                    {served.issuer}
                  </Row>
                  <Row
                    wrap="anywhere"
                    label={t('certificate.section.names')}
                    testId="certificate-names"
                  >
                    {served.names.map((name, i) => (
                      <span key={name}>
                        {i > 0 ? ', ' : ''}
                        <Breakable text={name} />
                      </span>
                    ))}
                  </Row>
                  <Row wrap="anywhere" label={t('certificate.section.validFrom')}>
                    {moment(served.notBefore)}
                  </Row>
                  <Row
                    wrap="anywhere"
                    label={t('certificate.section.expires')}
                    testId="certificate-expires"
                  >
                    {moment(served.notAfter)}
                  </Row>
                  <Row
                    wrap="anywhere"
                    label={t('certificate.section.fingerprint')}
                    testId="certificate-fingerprint"
                  >
                    <code className="font-mono text-xs break-all">{served.fingerprint}</code>
                  </Row>
                </>
              ) : null}
              <Row
                wrap="anywhere"
                label={t('certificate.section.lastCheck')}
                testId="certificate-last-check"
              >
                <LastCheck status={status} domain={proxy.domain} />
              </Row>
              {status.check ? (
                <Row
                  wrap="anywhere"
                  label={t('certificate.section.httpRedirect')}
                  testId="certificate-redirect"
                >
                  {status.check.httpRedirects
                    ? t('certificate.section.redirects')
                    : (status.check.httpProblem ?? t('certificate.section.noRedirect'))}
                </Row>
              ) : null}
              {status.onServer ? (
                <Row
                  wrap="anywhere"
                  label={t('certificate.section.onServer')}
                  testId="certificate-on-server"
                >
                  {t('certificate.section.onServerValue', {
                    date: moment(status.onServer.notAfter),
                    read: formatRelative(status.onServer.readAt, i18n.language),
                  })}
                </Row>
              ) : null}
              <Row
                wrap="anywhere"
                label={t('certificate.section.renewal')}
                testId="certificate-renewal"
              >
                <Renewal status={status} />
              </Row>
              <Row
                wrap="anywhere"
                label={t('certificate.section.recentlyIssued', {
                  days: status.recentlyIssued.days,
                })}
                testId="certificate-recently-issued"
              >
                <span data-count={status.recentlyIssued.count}>
                  {t('certificate.section.recentlyIssuedValue', status.recentlyIssued)}
                </span>
              </Row>
              {status.lastAction ? (
                <Row
                  wrap="anywhere"
                  label={t('certificate.section.lastAction')}
                  testId="certificate-last-action"
                >
                  {t(`certificate.section.actionKind.${status.lastAction.kind}`)}:{' '}
                  {t(`certificate.section.actionStatus.${status.lastAction.status}`)} (
                  {formatRelative(status.lastAction.at, i18n.language)}).{' '}
                  {t('certificate.section.actionLog')}
                </Row>
              ) : null}
            </dl>
          </>
        ) : null}
        <CertificateActions proxy={proxy} live={live} status={status} onRunStarted={onRunStarted} />
        <WildcardUseSection proxyId={proxy.id} domain={proxy.domain} />
        <DnsChallengeSection proxyId={proxy.id} domain={proxy.domain} />
        <UploadedCertificate proxyId={proxy.id} uploaded={query.data?.uploaded} />
      </CardContent>
    </Card>
  );
}
