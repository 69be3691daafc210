import {
  ArrowLeftIcon,
  CircleCheckIcon,
  CircleDashedIcon,
  CircleXIcon,
  Loader2Icon,
  TriangleAlertIcon,
} from 'lucide-react';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { ProxySummary } from '@/components/proxy-summary';
import { Breakable } from '@/components/ui/breakable';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api-client';
import { useCertificate } from '@/lib/certificate-status';
import { mergeLogLines, serverLine } from '@/lib/live-deployment/logs';
import { useDeploymentLogs } from '@/lib/live-deployment/queries';
import { certificateSummaryOf, summaryOfProxy, type TSummaryTone } from '@/lib/proxy-summary';
import { useProxy } from '../api/get-proxy';
import { useLiveDeployment } from '../api/use-live-deployment';
import { AdoptedSection } from './adopted-section';
import { CertificateSection } from './certificate-section';
import { DeploymentLogs } from './deployment-logs';
import { AccessUrls, BasicInformation } from './details-sections';
import { ManagementPanel } from './management-panel';
import { OptionsSection } from './options-section';
import { ServerRecord } from './server-record';

function StatusIcon({ tone }: { tone: TSummaryTone }) {
  const className = 'size-8 shrink-0';
  if (tone === 'fine')
    return <CircleCheckIcon className={`${className} text-success`} aria-hidden="true" />;
  if (tone === 'danger')
    return <CircleXIcon className={`${className} text-destructive`} aria-hidden="true" />;
  if (tone === 'running')
    return <Loader2Icon className={`${className} animate-spin text-primary`} aria-hidden="true" />;
  if (tone === 'warning')
    return <TriangleAlertIcon className={`${className} text-warning`} aria-hidden="true" />;
  return <CircleDashedIcon className={`${className} text-muted-foreground`} aria-hidden="true" />;
}

function BackButton() {
  const { t } = useTranslation();
  return (
    <Button asChild variant="ghost" size="sm" className="-ml-2 w-fit" data-testid="details-back">
      <Link href="/">
        <ArrowLeftIcon aria-hidden="true" />
        {t('proxies.details.back')}
      </Link>
    </Button>
  );
}

/** /proxy-details/{id} (docs/PRODUCT.md#proxy-details). */
export function ProxyDetailsPage({ id }: { id: string }) {
  const { t } = useTranslation();
  const socketUp = React.useRef(false);
  const proxyQuery = useProxy(id, () => socketUp.current);
  const logsQuery = useDeploymentLogs(id, { refetchOnMount: 'always' });
  const [redeployStarted, setRedeployStarted] = React.useState(false);
  const proxy = proxyQuery.data;
  const certificate = useCertificate(proxy ? id : undefined).data;
  const live = useLiveDeployment(id, proxy?.status === 'deploying' || redeployStarted);
  socketUp.current = live.connected;

  // Polled while the socket is down, or just finished: read the stored lines again too.
  const previousStatus = React.useRef(proxy?.status);
  const { refetch: refetchLogs } = logsQuery;
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each new read of the configuration
  React.useEffect(() => {
    const status = proxy?.status;
    const wasDeploying = previousStatus.current === 'deploying';
    previousStatus.current = status;
    if ((status === 'deploying' && !socketUp.current) || (wasDeploying && status !== 'deploying')) {
      void refetchLogs();
    }
  }, [proxyQuery.dataUpdatedAt]);

  // The run ended (the socket said so): stop following until the next start.
  React.useEffect(() => {
    if (live.lastStatus && live.lastStatus !== 'deploying') setRedeployStarted(false);
  }, [live.lastStatus]);

  const page = 'mx-auto grid w-full max-w-6xl gap-6 px-4 py-6 sm:px-6 sm:py-10';

  if (proxyQuery.isPending) {
    return (
      <div className="flex flex-1 items-center justify-center py-24" data-testid="details-loading">
        <Spinner className="size-8" label={t('common.loading')} />
      </div>
    );
  }

  if (!proxy) {
    const notFound = proxyQuery.error instanceof ApiError && proxyQuery.error.status === 404;
    return (
      <div className={page}>
        <BackButton />
        <div
          className="grid justify-items-center gap-3 rounded-lg border border-border px-6 py-16 text-center"
          data-testid="details-not-found"
        >
          <TriangleAlertIcon className="size-10 text-warning" aria-hidden="true" />
          <h1 className="text-xl font-semibold">
            {notFound ? t('proxies.details.configNotFound') : t('proxies.details.loadingError')}
          </h1>
          <p className="max-w-md text-sm text-muted-foreground">
            {t('proxies.details.notFoundDescription')}
          </p>
        </div>
      </div>
    );
  }

  const summary = summaryOfProxy(proxy, certificateSummaryOf(certificate));
  const lines = mergeLogLines((logsQuery.data ?? []).map(serverLine), live.lines);
  return (
    <div className={page} data-testid="proxy-details" data-proxy-id={proxy.id}>
      <div className="grid gap-3">
        <BackButton />
        <div className="flex min-w-0 items-start gap-3">
          <StatusIcon tone={summary.tone} />
          <div className="grid min-w-0 gap-1">
            <h1 className="text-2xl font-bold tracking-tight">{t('proxies.details.title')}</h1>
            <p
              className="text-muted-foreground [overflow-wrap:anywhere]"
              data-testid="details-domain"
            >
              <Breakable text={proxy.domain} />
            </p>
          </div>
        </div>
        {/* The proxy's one account comes first: what is live, what failed and why, what next. */}
        <ProxySummary summary={summary} className="rounded-lg border border-border p-4" />
      </div>
      {/* The actions come first in the page: on a phone (one column) they sit right under the
          title, where a thumb finds them, not below the whole log; from lg they are the top of
          the side column, with the SSL card under them. */}
      <div className="grid gap-6 lg:grid-cols-[1fr_20rem] lg:grid-rows-[auto_1fr]">
        <aside
          className="min-w-0 lg:col-start-2 lg:row-start-1"
          aria-label={t('proxies.details.management')}
        >
          <ManagementPanel proxy={proxy} onRedeployStarted={() => setRedeployStarted(true)} />
        </aside>
        <div className="grid min-w-0 content-start gap-6 lg:col-start-1 lg:row-span-2 lg:row-start-1">
          <BasicInformation proxy={proxy} />
          <AdoptedSection proxy={proxy} />
          <OptionsSection options={proxy.options} />
          <CertificateSection
            proxy={proxy}
            live={summary.serving === 'https'}
            onRunStarted={() => setRedeployStarted(true)}
          />
          <ServerRecord proxy={proxy} />
          <AccessUrls proxy={proxy} />
          <DeploymentLogs
            lines={lines}
            loading={logsQuery.isFetching}
            onRefresh={() => void logsQuery.refetch()}
            live={live.connected}
          />
        </div>
      </div>
    </div>
  );
}
