import type { TProxyConfiguration } from '@portico/shared/proxy/api';
import { PlayIcon } from 'lucide-react';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { errorDescription } from '@/lib/form-errors';
import { toastFailure } from '@/lib/toast-outcome';
import { usePlanTexts } from '@/lib/use-group-texts';
import { useApplyPlan, usePlanProxy } from '../api/deploy-plan';
import { PlanView } from './plan-view';

/** Where a plan is shown: its loading, its failure with the server's reason, or the plan. */
export function PlanBody({ plan }: { plan: ReturnType<typeof usePlanProxy> }) {
  const { t } = usePlanTexts();
  const { t: tAll } = useTranslation();
  if (plan.isPending) {
    return (
      <div className="flex items-center gap-2 py-6 text-sm" data-testid="plan-loading">
        <Spinner className="size-4" />
        {t('plan.loading')}
      </div>
    );
  }
  if (plan.error) {
    return (
      <Alert variant="destructive" data-testid="plan-error">
        <AlertDescription>
          <p className="font-medium">{t('plan.failed')}</p>
          <p className="whitespace-pre-wrap [overflow-wrap:anywhere]">
            {errorDescription(plan.error, tAll)}
          </p>
        </AlertDescription>
      </Alert>
    );
  }
  return plan.data ? <PlanView plan={plan.data} /> : null;
}

/** Applies a plan: the deployment starts, and stops before writing if the server changed. */
export function useApplyAction(onApplied: () => void) {
  const { t } = usePlanTexts();
  const { t: tAll } = useTranslation();
  const apply = useApplyPlan();
  const run = async (id: string, fingerprint: string) => {
    try {
      await apply.mutateAsync({ id, fingerprint });
      toast({ title: t('plan.applied'), description: t('plan.applyHint') });
      onApplied();
    } catch (error) {
      toastFailure(error, tAll, t('plan.applyFailed'));
    }
  };
  return { run, isPending: apply.isPending };
}

/** The details page's "Show plan": the plan of a deployment of the proxy as saved, then "Apply". */
export function PlanDialog({
  proxy,
  open,
  onOpenChange,
  onApplied,
}: {
  proxy: TProxyConfiguration;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onApplied: () => void;
}) {
  const { t } = usePlanTexts();
  const plan = usePlanProxy();
  const apply = useApplyAction(() => {
    onOpenChange(false);
    onApplied();
  });
  const { mutate, reset } = plan;

  // Each opening reads the server anew.
  React.useEffect(() => {
    if (open) mutate({ id: proxy.id });
    else reset();
  }, [open, proxy.id, mutate, reset]);

  return (
    <Dialog open={open} onOpenChange={(next) => (apply.isPending ? undefined : onOpenChange(next))}>
      <DialogContent className="sm:max-w-3xl" data-testid="plan-dialog">
        <DialogHeader>
          <DialogTitle className="[overflow-wrap:anywhere]">
            {t('plan.title', { domain: proxy.domain })}
          </DialogTitle>
          <DialogDescription>{t('plan.description')}</DialogDescription>
        </DialogHeader>
        <PlanBody plan={plan} />
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={apply.isPending}>
            {t('plan.close')}
          </Button>
          <Button
            onClick={() => plan.data && void apply.run(proxy.id, plan.data.fingerprint)}
            disabled={!plan.data || apply.isPending}
            data-testid="plan-apply"
          >
            {apply.isPending ? (
              <Spinner className="text-current" />
            ) : (
              <PlayIcon aria-hidden="true" />
            )}
            {apply.isPending ? t('plan.applying') : t('plan.apply')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
