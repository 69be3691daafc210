import { useTranslation } from 'react-i18next';
import { toast } from '@/hooks/use-toast';
import { toastFailure } from '@/lib/toast-outcome';
import { usePlanTexts } from '@/lib/use-group-texts';
import { useApplyPlan } from '../api/deploy-plan';

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
