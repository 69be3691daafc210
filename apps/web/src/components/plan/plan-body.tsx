import { useTranslation } from 'react-i18next';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Spinner } from '@/components/ui/spinner';
import type { usePlanProxy } from '@/lib/deploy-plan';
import { errorDescription } from '@/lib/form-errors';
import { usePlanTexts } from '@/lib/use-group-texts';
import { PlanView } from './plan-view';

/** Where a plan is shown: its loading, its failure with the server's reason, or the plan. */
export function PlanBody({
  plan,
}: {
  plan: Pick<ReturnType<typeof usePlanProxy>, 'isPending' | 'error' | 'data'>;
}) {
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
