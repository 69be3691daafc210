import { ArrowLeftIcon, ArrowRightIcon } from 'lucide-react';
import type * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';

/** Back and Next of a step; Next is a submit button when the step is a form. */
export function StepNav({
  onBack,
  onNext,
  nextDisabled = false,
  nextBusy = false,
  nextLabel,
  nextType = 'button',
  extra,
}: {
  onBack?: () => void;
  onNext?: () => void;
  nextDisabled?: boolean;
  nextBusy?: boolean;
  nextLabel?: string;
  nextType?: 'button' | 'submit';
  extra?: React.ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col-reverse gap-2 border-t border-border pt-4 sm:flex-row sm:items-center">
      {onBack ? (
        <Button variant="outline" onClick={onBack} data-testid="wizard-back">
          <ArrowLeftIcon aria-hidden="true" />
          {t('wizard.nav.back')}
        </Button>
      ) : null}
      <div className="flex flex-col-reverse gap-2 sm:ml-auto sm:flex-row">
        {extra}
        {onNext || nextType === 'submit' ? (
          <Button
            type={nextType}
            onClick={onNext}
            disabled={nextDisabled || nextBusy}
            data-testid="wizard-next"
          >
            {nextBusy ? <Spinner className="size-4 text-current" /> : null}
            {nextLabel ?? t('wizard.nav.next')}
            {nextBusy ? null : <ArrowRightIcon aria-hidden="true" />}
          </Button>
        ) : null}
      </div>
    </div>
  );
}
