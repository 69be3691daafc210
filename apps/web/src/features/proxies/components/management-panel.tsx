import type { TProxyConfiguration } from '@portico/shared/proxy/api';
import { FileDiffIcon, RefreshCwIcon, RotateCcwIcon, SettingsIcon, Trash2Icon } from 'lucide-react';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { PlanDialog } from '@/components/plan/plan-dialog';
import { BusyButton, type TBusyButtonProps } from '@/components/ui/busy-button';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Unavailable } from '@/components/ui/unavailable';
import { hasDeployCredential, type TProxyAction, unavailableReason } from '@/lib/proxy-status';
import { summaryOfProxy } from '@/lib/proxy-summary';
import { toastOutcome } from '@/lib/toast-outcome';
import { usePlanTexts } from '@/lib/use-group-texts';
import { cn } from '@/lib/utils';
import { useDeleteProxy } from '../api/delete-proxy';
import { useResetProxy } from '../api/reset-proxy';
import { continueHref } from '../lib/status';
import { DeleteProxyDialog } from './delete-proxy-dialog';
import { PasswordNeeded } from './password-needed';
import { useApplyAction } from './use-apply-action';
import { useRedeployAction } from './use-redeploy-action';

/** A confirmed action's trigger: outline, left-aligned, a spinner in place of its icon while busy. */
function PanelButton({
  label,
  className,
  ...props
}: Omit<TBusyButtonProps, 'children'> & { label: string }) {
  return (
    <BusyButton variant="outline" className={cn('justify-start', className)} {...props}>
      {label}
    </BusyButton>
  );
}

/**
 * The details page's management actions. An action the server would refuse now (everything but
 * Modify while a deployment runs; a redeploy without a destination or password) is unavailable,
 * with the reason; without a saved password a notice also says how to enter it.
 */
export function ManagementPanel({
  proxy,
  onRedeployStarted,
}: {
  proxy: TProxyConfiguration;
  onRedeployStarted: () => void;
}) {
  const { t } = useTranslation();
  const { t: tPlan } = usePlanTexts();
  const [, navigate] = useLocation();
  const [planOpen, setPlanOpen] = React.useState(false);
  const applyPlan = useApplyAction(() => {
    setPlanOpen(false);
    onRedeployStarted();
  });
  const reset = useResetProxy();
  const redeploy = useRedeployAction();
  const deleteMutation = useDeleteProxy();
  const [deleteOpen, setDeleteOpen] = React.useState(false);

  // A reset touches nothing on the server: what it serves, it keeps serving (the record says).
  const serving = summaryOfProxy(proxy).serving !== null;
  const onReset = () =>
    toastOutcome(() => reset.mutateAsync(proxy.id), t, {
      success: t('proxies.details.resetSuccess'),
      successDescription: serving ? t('proxies.reset.stillServing') : undefined,
      failure: t('proxies.details.resetError'),
    });

  const onRedeploy = async () => {
    if (await redeploy.run(proxy.id)) onRedeployStarted();
  };

  const deploying = proxy.status === 'deploying';
  const why = (action: TProxyAction) => unavailableReason(t, proxy, action);
  // Without a saved password a redeploy can only be refused: the notice says how to enter it
  // (an adopted site is never deployed, so it needs none).
  const needsPassword = !hasDeployCredential(proxy) && !proxy.adoption;
  // Modify stays open while a deployment runs (it shows the run); only an adopted site closes it.
  const modifyBlocked = proxy.adoption ? why('edit') : null;
  return (
    <Card data-testid="management-panel">
      <CardHeader>
        <CardTitle>{t('proxies.details.management')}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-2">
        {needsPassword && !deploying ? <PasswordNeeded proxy={proxy} /> : null}
        {modifyBlocked ? (
          <Unavailable reason={modifyBlocked}>
            <Button variant="outline" className="justify-start" data-testid="action-modify">
              <SettingsIcon aria-hidden="true" />
              {t('proxies.details.modify')}
            </Button>
          </Unavailable>
        ) : (
          <Button asChild variant="outline" className="justify-start" data-testid="action-modify">
            <Link href={continueHref(proxy.id)}>
              <SettingsIcon aria-hidden="true" />
              {t('proxies.details.modify')}
            </Link>
          </Button>
        )}
        <ConfirmDialog
          testId="reset"
          title={t('proxies.reset.title')}
          description={`${t('proxies.reset.description', { domain: proxy.domain })}${
            serving ? ` ${t('proxies.reset.stillServing')}` : ''
          }`}
          confirm={t('proxies.reset.confirm')}
          onConfirm={() => void onReset()}
          unavailable={why('reset')}
          trigger={
            <PanelButton
              busy={reset.isPending}
              icon={<RotateCcwIcon aria-hidden="true" />}
              label={t('proxies.details.reset')}
              data-testid="action-reset"
            />
          }
        />
        {/* The plan first: what a redeploy would change, before anything is written. */}
        <Unavailable reason={why('redeploy')}>
          <PanelButton
            busy={false}
            disabled={deploying}
            icon={<FileDiffIcon aria-hidden="true" />}
            label={tPlan('plan.show')}
            title={tPlan('plan.showHint')}
            onClick={() => setPlanOpen(true)}
            data-testid="action-plan"
          />
        </Unavailable>
        <PlanDialog
          proxyId={proxy.id}
          domain={proxy.domain}
          open={planOpen}
          onOpenChange={setPlanOpen}
          onApply={(fingerprint) => void applyPlan.run(proxy.id, fingerprint)}
          applying={applyPlan.isPending}
        />
        <ConfirmDialog
          testId="redeploy"
          title={t('proxies.redeploy.title')}
          description={t('proxies.redeploy.description', { domain: proxy.domain })}
          confirm={t('proxies.redeploy.confirm')}
          onConfirm={() => void onRedeploy()}
          unavailable={why('redeploy')}
          trigger={
            <PanelButton
              busy={redeploy.isPending || deploying}
              icon={<RefreshCwIcon aria-hidden="true" />}
              label={t('proxies.details.redeploy')}
              data-testid="action-redeploy"
            />
          }
        />
        <Unavailable reason={why('delete')}>
          <Button
            variant="outline"
            className="justify-start border-red-200 text-destructive hover:bg-destructive-soft hover:text-destructive"
            disabled={deleteMutation.isPending}
            onClick={() => setDeleteOpen(true)}
            data-testid="action-delete"
          >
            <Trash2Icon aria-hidden="true" />
            {t('proxies.details.delete')}
          </Button>
        </Unavailable>
        <DeleteProxyDialog
          domain={proxy.domain}
          sites={proxy.serverSites}
          adoptedFile={proxy.adoption?.file}
          open={deleteOpen}
          onOpenChange={setDeleteOpen}
          onDelete={(choice) => deleteMutation.mutateAsync({ id: proxy.id, ...choice })}
          onDeleted={() => navigate('/')}
        />
      </CardContent>
    </Card>
  );
}
