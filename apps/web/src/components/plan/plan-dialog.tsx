import { PlayIcon } from 'lucide-react';
import * as React from 'react';
import { BusyButton } from '@/components/ui/busy-button';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { usePlanProxy } from '@/lib/deploy-plan';
import { usePlanTexts } from '@/lib/use-group-texts';
import { PlanBody } from './plan-body';

/**
 * "Show plan": the plan of a deployment of the proxy as saved, read anew at each opening, then
 * "Apply" with the plan's fingerprint (the run stops before writing if the server changed since).
 * The details page and the wizard's deploy step each say what applying starts.
 */
export function PlanDialog({
  proxyId,
  domain,
  open,
  onOpenChange,
  onApply,
  applying,
}: {
  proxyId: string;
  domain: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onApply: (fingerprint: string) => void;
  applying: boolean;
}) {
  const { t } = usePlanTexts();
  const plan = usePlanProxy();
  const { mutate, reset } = plan;

  // Each opening reads the server anew.
  React.useEffect(() => {
    if (open) mutate({ id: proxyId });
    else reset();
  }, [open, proxyId, mutate, reset]);

  return (
    <Dialog open={open} onOpenChange={(next) => (applying ? undefined : onOpenChange(next))}>
      <DialogContent className="sm:max-w-3xl" data-testid="plan-dialog">
        <DialogHeader>
          <DialogTitle className="[overflow-wrap:anywhere]">
            {t('plan.title', { domain })}
          </DialogTitle>
          <DialogDescription>{t('plan.description')}</DialogDescription>
        </DialogHeader>
        <PlanBody plan={plan} />
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={applying}>
            {t('plan.close')}
          </Button>
          <BusyButton
            busy={applying}
            icon={<PlayIcon aria-hidden="true" />}
            busyLabel={t('plan.applying')}
            onClick={() => plan.data && onApply(plan.data.fingerprint)}
            disabled={!plan.data}
            data-testid="plan-apply"
          >
            {t('plan.apply')}
          </BusyButton>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
