import { PlayIcon } from 'lucide-react';
import * as React from 'react';
import { FormDialog } from '@/components/form-dialog';
import { BusyButton } from '@/components/ui/busy-button';
import { Button } from '@/components/ui/button';
import { DialogFooter } from '@/components/ui/dialog';
import { usePlanProxy } from '@/lib/deploy-plan';
import { usePlanTexts } from '@/lib/use-group-texts';
import { PlanBody } from './plan-body';

/** A plan's dialog: its title and words, the plan (loading, failure or files), close and apply. */
export function PlanDialogFrame({
  open,
  onOpenChange,
  title,
  description,
  plan,
  onApply,
  applying,
  labels,
  icon,
  testId,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  plan: React.ComponentProps<typeof PlanBody>['plan'];
  onApply: (fingerprint: string) => void;
  applying: boolean;
  labels: { close: string; apply: string; applying: string };
  icon: React.ReactNode;
  testId: string;
}) {
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      pending={applying}
      title={title}
      description={description}
      className="sm:max-w-3xl"
      testId={`${testId}-dialog`}
    >
      <PlanBody plan={plan} />
      <PlanFooter
        plan={plan}
        onLeave={() => onOpenChange(false)}
        onApply={onApply}
        applying={applying}
        labels={{ leave: labels.close, apply: labels.apply, applying: labels.applying }}
        applyIcon={icon}
        applyTestId={`${testId}-apply`}
      />
    </FormDialog>
  );
}

/**
 * A plan's buttons: leave it (close the dialog, or go back to the form) and apply it, which can
 * be pressed once the plan has been read; neither while it applies.
 */
export function PlanFooter({
  plan,
  onLeave,
  onApply,
  applying,
  labels,
  leaveIcon,
  applyIcon,
  leaveTestId,
  applyTestId,
}: {
  plan: React.ComponentProps<typeof PlanBody>['plan'];
  onLeave: () => void;
  onApply: (fingerprint: string) => void;
  applying: boolean;
  labels: { leave: string; apply: string; applying: string };
  leaveIcon?: React.ReactNode;
  applyIcon: React.ReactNode;
  leaveTestId?: string;
  applyTestId: string;
}) {
  return (
    <DialogFooter>
      <Button variant="outline" onClick={onLeave} disabled={applying} data-testid={leaveTestId}>
        {leaveIcon}
        {labels.leave}
      </Button>
      <BusyButton
        busy={applying}
        icon={applyIcon}
        busyLabel={labels.applying}
        onClick={() => plan.data && onApply(plan.data.fingerprint)}
        disabled={!plan.data}
        data-testid={applyTestId}
      >
        {labels.apply}
      </BusyButton>
    </DialogFooter>
  );
}

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
    <PlanDialogFrame
      open={open}
      onOpenChange={onOpenChange}
      title={t('plan.title', { domain })}
      description={t('plan.description')}
      plan={plan}
      onApply={onApply}
      applying={applying}
      labels={{ close: t('plan.close'), apply: t('plan.apply'), applying: t('plan.applying') }}
      icon={<PlayIcon aria-hidden="true" />}
      testId="plan"
    />
  );
}
