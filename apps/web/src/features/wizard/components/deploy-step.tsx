import { isWildcard } from '@portico/shared/certificates/dns-challenge';
import type { TDeployResponse, TWsMessage } from '@portico/shared/proxy/api';
import { useQueryClient } from '@tanstack/react-query';
import { CircleAlertIcon, DownloadIcon, EyeIcon, FileDiffIcon, RocketIcon } from 'lucide-react';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { PlanDialog } from '@/components/plan/plan-dialog';
import { ProxySummary } from '@/components/proxy-summary';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Progress } from '@/components/ui/progress';
import { toast } from '@/hooks/use-toast';
import { ApiError } from '@/lib/api-client';
import { applyPlan } from '@/lib/deploy-plan';
import { dnsChallengeOf, useSaveDnsChallenge } from '@/lib/dns-challenge';
import { errorDescription, errorText } from '@/lib/form-errors';
import { LogPanel } from '@/lib/live-deployment/log-panel';
import { currentRunEntries, logFileName, serverLine } from '@/lib/live-deployment/logs';
import {
  deploymentLogsQueryOptions,
  deploymentPollMs,
  useDeploymentLogs,
} from '@/lib/live-deployment/queries';
import { useDeploymentSocket } from '@/lib/live-deployment/use-deployment-socket';
import { formatLogDownload, useLogText } from '@/lib/log-text';
import { summaryOfProxy } from '@/lib/proxy-summary';
import { proxyKeys } from '@/lib/query-keys';
import { usePlanTexts } from '@/lib/use-group-texts';
import { useChooseWildcard } from '@/lib/wildcard-use';
import { useStartDeployment } from '../api/deploy';
import { useConfiguration } from '../api/get-configuration';
import { downloadText } from '../state/download';
import type { TWizardAction, TWizardState } from '../state/wizard-reducer';
import { StepCard } from './step-card';
import { StepNav } from './step-nav';

const AUTO_ADVANCE_MS = 2000;

/** The wizard's own end-of-run lines, rendered in the language of the moment. */
const STATUS_MESSAGES = {
  completed: { key: 'wizard.deploy.log.completed' },
  failed: { key: 'wizard.deploy.failedText' },
};

export function DeployStep({
  state,
  dispatch,
}: {
  state: TWizardState;
  dispatch: React.Dispatch<TWizardAction>;
}) {
  const { t } = useTranslation();
  const planTexts = usePlanTexts();
  const id = state.data.configurationId;
  const { deploy } = state;
  const startDeployment = useStartDeployment();
  const saveDns = useSaveDnsChallenge();
  const chooseWildcard = useChooseWildcard();
  const queryClient = useQueryClient();
  // Between Start and the 202 the stored status may still be the previous run's.
  const awaitingAccept = React.useRef(false);

  const words = useLogText();

  const onMessage = React.useCallback(
    (message: TWsMessage) => {
      if (message.type === 'deployment_progress') {
        dispatch({ type: 'logsReceived', lines: [serverLine(message.data)] });
        return;
      }
      dispatch({
        type: 'statusReceived',
        status: message.data.status,
        deploymentId: message.data.deploymentId,
        messages: STATUS_MESSAGES,
        at: new Date().toISOString(),
      });
    },
    [dispatch],
  );
  const socketState = useDeploymentSocket(id, onMessage);
  const pollMs = deploymentPollMs(deploy.status === 'deploying', socketState === 'open');
  const config = useConfiguration(id, { pollMs });
  const logs = useDeploymentLogs(id, { enabled: pollMs !== false, pollMs });

  React.useEffect(() => {
    if (!pollMs || !logs.data) return;
    const entries = currentRunEntries(logs.data, deploy.deploymentId);
    dispatch({ type: 'logsReceived', lines: entries.map(serverLine) });
  }, [pollMs, logs.data, deploy.deploymentId, dispatch]);

  React.useEffect(() => {
    if (!pollMs || !config.data || awaitingAccept.current) return;
    dispatch({
      type: 'statusReceived',
      status: config.data.status,
      deploymentId: null,
      messages: STATUS_MESSAGES,
      at: new Date().toISOString(),
    });
  }, [pollMs, config.data, dispatch]);

  // The run's end changed what the server holds (SSL, status): the sidebar rereads it. The last
  // lines may not have arrived yet (a poll reports the end before its lines): read them once.
  const deploymentId = deploy.deploymentId;
  React.useEffect(() => {
    if (!id || (deploy.status !== 'completed' && deploy.status !== 'failed')) return;
    void queryClient.invalidateQueries({ queryKey: proxyKeys.detail(id) });
    queryClient.fetchQuery({ ...deploymentLogsQueryOptions(id), staleTime: 0 }).then(
      (entries) => {
        const run = currentRunEntries(entries, deploymentId);
        dispatch({ type: 'logsReceived', lines: run.map(serverLine) });
      },
      (error: unknown) => console.error('deployment logs', error),
    );
  }, [deploy.status, id, deploymentId, queryClient, dispatch]);

  React.useEffect(() => {
    if (deploy.status !== 'completed') return;
    const timer = setTimeout(() => dispatch({ type: 'goTo', step: 'complete' }), AUTO_ADVANCE_MS);
    return () => clearTimeout(timer);
  }, [deploy.status, dispatch]);

  // The run is started by Deploy, or by the plan's Apply with the fingerprint of what was shown.
  const [planOpen, setPlanOpen] = React.useState(false);
  const [applying, setApplying] = React.useState(false);
  const start = async (
    send: (id: string) => Promise<TDeployResponse> = startDeployment.mutateAsync,
  ) => {
    if (!id) return;
    const { certificate, domain } = state.data;
    const dns = certificate.method === 'dns-01';
    const challenge = dns ? dnsChallengeOf(certificate.dns, isWildcard(domain)) : null;
    // Resumed without the provider's fields (they are never read back): asked for again.
    if (challenge && 'problems' in challenge) {
      dispatch({ type: 'goTo', step: 'dns-validation' });
      return;
    }
    awaitingAccept.current = true;
    dispatch({
      type: 'deployStarted',
      message: { key: 'wizard.deploy.log.starting' },
      at: new Date().toISOString(),
    });
    // A 409 means "one is already running" only from the start itself: the choices stored before
    // it answer 409 for their own refusals (a wildcard certificate no longer usable).
    let starting = false;
    try {
      // The credentials are stored before the run that needs them starts.
      if (challenge) await saveDns.mutateAsync({ id, input: challenge.input });
      // So is the wildcard certificate of the same server it is to be served with.
      if (certificate.method === 'wildcard' && certificate.holderId) {
        await chooseWildcard.mutateAsync({ id, holderId: certificate.holderId });
      }
      starting = true;
      const res = await send(id);
      dispatch({ type: 'deployAccepted', deploymentId: res.deploymentId });
    } catch (error) {
      if (starting && error instanceof ApiError && error.status === 409) {
        // One is already running: follow it instead of failing. The server's
        // sentence says so; the catalog's is the fallback, never both.
        toast({ title: errorDescription(error, t, t('wizard.deploy.alreadyRunning')) });
      } else {
        const message = errorText(error, { key: 'wizard.deploy.unknownError' });
        dispatch({
          type: 'deployRequestFailed',
          message: { key: 'wizard.deploy.requestError', params: { message } },
          at: new Date().toISOString(),
        });
      }
    } finally {
      awaitingAccept.current = false;
    }
  };

  // A finished run (live or reopened) is told by the proxy's one summary: what the server serves,
  // why the run failed, what to do; read once the stored configuration has the run's end.
  const finished = deploy.status === 'completed' || deploy.status === 'failed';
  const stored = config.data;
  const summary =
    finished && stored && stored.status !== 'deploying' ? summaryOfProxy(stored) : null;
  const progress = deploy.status === 'deploying' ? null : deploy.status === 'completed' ? 100 : 0;
  const deploying = deploy.status === 'deploying';
  return (
    <StepCard title={t('wizard.deploy.title')} description={t('wizard.deploy.description')}>
      <div className="grid gap-2" data-testid="wizard-deploy-status" data-status={deploy.status}>
        <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
          <span className="font-medium" aria-live="polite">
            {t(`wizard.deploy.state.${deploy.status}`)}
          </span>
          {deploying && socketState !== 'open' ? (
            <span className="text-xs text-muted-foreground">{t('wizard.deploy.polling')}</span>
          ) : null}
        </div>
        <Progress value={progress} aria-label={t('wizard.deploy.progressLabel')} />
      </div>
      <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
        <Button
          onClick={() => void start()}
          disabled={deploying || !id}
          data-testid="wizard-deploy-start"
        >
          <RocketIcon aria-hidden="true" />
          {deploy.status === 'completed' || deploy.status === 'failed'
            ? t('wizard.deploy.startAgain')
            : t('wizard.deploy.start')}
        </Button>
        <Button
          variant="outline"
          onClick={() => setPlanOpen(true)}
          disabled={deploying || !id}
          data-testid="wizard-deploy-plan"
        >
          <FileDiffIcon aria-hidden="true" />
          {planTexts.t('plan.show')}
        </Button>
        <Button
          variant="outline"
          disabled={deploy.logs.length === 0 || !id}
          onClick={() => id && downloadText(logFileName(id), formatLogDownload(deploy.logs, words))}
          data-testid="wizard-deploy-download"
        >
          <DownloadIcon aria-hidden="true" />
          {t('wizard.deploy.download')}
        </Button>
        {deploy.status === 'completed' ? (
          <Button
            variant="secondary"
            onClick={() => dispatch({ type: 'goTo', step: 'complete' })}
            data-testid="wizard-view-results"
          >
            <EyeIcon aria-hidden="true" />
            {t('wizard.deploy.viewResults')}
          </Button>
        ) : null}
      </div>
      {summary ? (
        // The failure is said here, with the rest of the story (the test id of the run's error).
        <div data-testid={summary.failure ? 'wizard-deploy-error' : 'wizard-run-summary'}>
          <ProxySummary summary={summary} className="rounded-lg border border-border p-4" />
        </div>
      ) : null}
      <LogPanel variant="run" id="wizard-log-panel" lines={deploy.logs} />
      {id ? (
        <PlanDialog
          proxyId={id}
          domain={state.data.domain}
          open={planOpen}
          onOpenChange={setPlanOpen}
          applying={applying}
          onApply={(fingerprint) => {
            setApplying(true);
            void start((runId) => applyPlan(runId, fingerprint)).finally(() => {
              setApplying(false);
              setPlanOpen(false);
            });
          }}
        />
      ) : null}
      {deploy.status === 'failed' && deploy.error && !summary?.failure ? (
        <Alert variant="destructive" data-testid="wizard-deploy-error">
          <CircleAlertIcon aria-hidden="true" />
          <AlertDescription className="whitespace-pre-wrap [overflow-wrap:anywhere]">
            {words.text(deploy.error)}
          </AlertDescription>
        </Alert>
      ) : null}
      <StepNav onBack={deploying ? undefined : () => dispatch({ type: 'back' })} />
    </StepCard>
  );
}
