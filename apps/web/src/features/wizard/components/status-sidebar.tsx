import { maskHost } from '@portico/shared/masking';
import type { TProxyConfiguration } from '@portico/shared/proxy/api';
import { format } from 'date-fns';
import { PencilIcon, RocketIcon, ScrollTextIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/utils';
import type { TWizardProgress } from '../state/progress';
import { hasUsablePassword } from '../state/server-info-schema';
import type { TWizardAction, TWizardState } from '../state/wizard-reducer';
import { dnsTone, StatusIcon, sshTone, type TTone } from './status-icon';

type TProxyState = 'notSaved' | 'saved' | 'deploying' | 'active' | 'failed';

function proxyState(state: TWizardState): TProxyState {
  if (state.deploy.status === 'deploying') return 'deploying';
  if (state.deploy.status === 'completed') return 'active';
  if (state.deploy.status === 'failed') return 'failed';
  if (!state.data.configurationId) return 'notSaved';
  if (state.configStatus === 'completed') return 'active';
  if (state.configStatus === 'failed' || state.configStatus === 'error') return 'failed';
  return 'saved';
}
const PROXY_TONE: Record<TProxyState, TTone> = {
  notSaved: 'waiting',
  saved: 'waiting',
  deploying: 'running',
  active: 'ok',
  failed: 'failed',
};

function Row({
  tone,
  label,
  value,
  testId,
}: {
  tone: TTone;
  label: string;
  value: string;
  testId: string;
}) {
  return (
    <li className="flex items-start gap-2.5" data-testid={testId} data-tone={tone}>
      <StatusIcon tone={tone} className="mt-0.5 size-4" />
      <span className="grid min-w-0">
        <span className="text-sm font-medium">{label}</span>
        <span className="text-xs text-muted-foreground">{value}</span>
      </span>
    </li>
  );
}

function SummaryItem({
  label,
  testId,
  mono = false,
  children,
}: {
  label: string;
  testId?: string;
  mono?: boolean;
  children: React.ReactNode;
}) {
  return (
    <div className="grid min-w-0 gap-0.5">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd
        className={cn('[overflow-wrap:anywhere]', mono && 'font-mono text-xs leading-5')}
        data-testid={testId}
      >
        {children}
      </dd>
    </div>
  );
}

/**
 * The wizard's status sidebar: the checks (as `progress` reads them, the step bar's reading
 * too), the summary (hosts masked) and actions that work.
 */
export function StatusSidebar({
  state,
  progress,
  config,
  dispatch,
}: {
  state: TWizardState;
  progress: TWizardProgress;
  config: TProxyConfiguration | null | undefined;
  dispatch: React.Dispatch<TWizardAction>;
}) {
  const { t } = useTranslation();
  const { data, step } = state;
  const { dns, ssh } = progress;
  const proxy = proxyState(state);
  const ssl = config?.sslConfigured ?? false;
  const expires = config?.certificateExpiresAt ? new Date(config.certificateExpiresAt) : null;
  const deploying = state.deploy.status === 'deploying';
  const dash = t('wizard.sidebar.notSet');
  return (
    <aside
      className="grid gap-4"
      aria-label={t('wizard.sidebar.label')}
      data-testid="wizard-sidebar"
    >
      <Card>
        <CardHeader className="pb-3">
          <CardTitle className="text-base">{t('wizard.sidebar.statusTitle')}</CardTitle>
        </CardHeader>
        <CardContent>
          <ul className="grid gap-3">
            <Row
              testId="wizard-sidebar-dns"
              tone={dnsTone[dns]}
              label={t('wizard.sidebar.dns')}
              value={t(`wizard.validation.dnsStatus.${dns}`)}
            />
            <Row
              testId="wizard-sidebar-ssh"
              tone={sshTone[ssh]}
              label={t('wizard.sidebar.ssh')}
              value={t(`wizard.validation.sshStatus.${ssh}`)}
            />
            <Row
              testId="wizard-sidebar-proxy"
              tone={PROXY_TONE[proxy]}
              label={t('wizard.sidebar.proxy')}
              value={t(`wizard.sidebar.proxyState.${proxy}`)}
            />
            <Row
              testId="wizard-sidebar-ssl"
              tone={ssl ? 'ok' : 'waiting'}
              label={t('wizard.sidebar.ssl')}
              value={
                ssl
                  ? expires && !Number.isNaN(expires.getTime())
                    ? t('wizard.sidebar.sslUntil', { date: format(expires, 'yyyy-MM-dd') })
                    : t('wizard.sidebar.sslOn')
                  : t('wizard.sidebar.sslOff')
              }
            />
          </ul>
        </CardContent>
      </Card>
      <Card>
        <CardHeader className="pb-3">
          <CardTitle className="text-base">{t('wizard.sidebar.summaryTitle')}</CardTitle>
        </CardHeader>
        <CardContent>
          {/* Each value gets a line of its own below its label, so a URL or host usually fits
              whole; only a value wider than the card wraps. */}
          <dl className="grid gap-2 text-sm">
            <SummaryItem
              label={t('wizard.sidebar.server')}
              testId="wizard-sidebar-server"
              mono={Boolean(data.serverIp)}
            >
              {data.serverIp ? maskHost(data.serverIp) : dash}
            </SummaryItem>
            <SummaryItem label={t('wizard.sidebar.domain')}>{data.domain || dash}</SummaryItem>
            <SummaryItem label={t('wizard.sidebar.user')}>{data.sshUser || dash}</SummaryItem>
            <SummaryItem label={t('wizard.sidebar.target')} testId="wizard-sidebar-target">
              {data.targetServer || dash}
            </SummaryItem>
          </dl>
        </CardContent>
      </Card>
      <QuickActions
        step={step}
        deployedBefore={Boolean(config?.lastDeployedAt)}
        canDeploy={
          Boolean(data.configurationId && data.targetServer) &&
          hasUsablePassword(data) &&
          !deploying
        }
        canEdit={!deploying && step !== 'server-info'}
        configurationId={data.configurationId}
        dispatch={dispatch}
      />
    </aside>
  );
}

/** One of the sidebar's quick actions: small, outline, left-aligned. */
function QuickAction({
  onClick,
  icon,
  label,
  testId,
}: {
  onClick: () => void;
  icon: React.ReactNode;
  label: string;
  testId: string;
}) {
  return (
    <Button
      variant="outline"
      size="sm"
      className="justify-start"
      onClick={onClick}
      data-testid={testId}
    >
      {icon}
      {label}
    </Button>
  );
}

function QuickActions({
  step,
  deployedBefore,
  canDeploy,
  canEdit,
  configurationId,
  dispatch,
}: {
  step: TWizardState['step'];
  /** A run of this configuration once completed: going to the deploy step is doing it again. */
  deployedBefore: boolean;
  canDeploy: boolean;
  canEdit: boolean;
  configurationId: string | null;
  dispatch: React.Dispatch<TWizardAction>;
}) {
  const { t } = useTranslation();
  const showLogs = Boolean(configurationId) && step === 'deploy';
  const showDeploy = canDeploy && step !== 'deploy';
  if (!showLogs && !showDeploy && !canEdit) return null;
  return (
    <Card>
      <CardHeader className="pb-3">
        <CardTitle className="text-base">{t('wizard.sidebar.actionsTitle')}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-2">
        {showLogs ? (
          <QuickAction
            onClick={() => document.getElementById('wizard-log-panel')?.focus()}
            icon={<ScrollTextIcon aria-hidden="true" />}
            label={t('wizard.sidebar.viewLogs')}
            testId="wizard-action-logs"
          />
        ) : null}
        {showDeploy ? (
          <QuickAction
            onClick={() => dispatch({ type: 'goTo', step: 'deploy' })}
            icon={<RocketIcon aria-hidden="true" />}
            label={deployedBefore ? t('wizard.sidebar.redeploy') : t('wizard.sidebar.deploy')}
            testId="wizard-action-redeploy"
          />
        ) : null}
        {canEdit ? (
          <QuickAction
            onClick={() => dispatch({ type: 'goTo', step: 'server-info' })}
            icon={<PencilIcon aria-hidden="true" />}
            label={t('wizard.sidebar.updateConfig')}
            testId="wizard-action-edit"
          />
        ) : null}
      </CardContent>
    </Card>
  );
}
