import { CheckIcon, XIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { cn } from '@/lib/utils';
import type { TStepStatus } from '../state/progress';
import { stepIndex, type TWizardStep, WIZARD_STEPS } from '../state/steps';

/**
 * Numbered circles with titles; completed steps show a check instead of the number, a step
 * whose check the last run failed a cross. `steps` is the reading the sidebar shows too.
 */
export function ProgressSteps({
  current,
  steps,
}: {
  current: TWizardStep;
  steps: Record<TWizardStep, TStepStatus>;
}) {
  const { t } = useTranslation();
  const currentIndex = stepIndex(current);
  return (
    <nav aria-label={t('wizard.progress.label')}>
      <ol className="flex items-start justify-between gap-1" data-testid="wizard-progress">
        {WIZARD_STEPS.map((step, index) => {
          const status = steps[step];
          return (
            <li
              key={step}
              className="relative flex min-w-0 flex-1 flex-col items-center gap-1.5 text-center"
              aria-current={status === 'current' ? 'step' : undefined}
              data-testid={`wizard-progress-${step}`}
              data-status={status}
            >
              <span
                aria-hidden="true"
                className={cn(
                  'flex size-8 items-center justify-center rounded-full border-2 text-sm font-semibold sm:size-9',
                  status === 'completed' && 'border-success bg-success text-white',
                  status === 'failed' && 'border-destructive bg-destructive text-white',
                  status === 'current' && 'border-primary bg-primary text-primary-foreground',
                  status === 'pending' && 'border-border bg-background text-muted-foreground',
                )}
              >
                {status === 'completed' ? (
                  <CheckIcon className="size-4" />
                ) : status === 'failed' ? (
                  <XIcon className="size-4" />
                ) : (
                  index + 1
                )}
              </span>
              {/* Phones show only the circles; the current title is spelled out below. */}
              <span
                className={cn(
                  'sr-only text-xs leading-tight sm:not-sr-only sm:w-full',
                  status === 'pending' ? 'text-muted-foreground' : 'font-medium text-foreground',
                )}
              >
                {t(`wizard.steps.${step}`)}
                <span className="sr-only"> ({t(`wizard.progress.${status}`)})</span>
              </span>
            </li>
          );
        })}
      </ol>
      <p className="mt-2 text-center text-sm font-medium sm:hidden" aria-hidden="true">
        {t('wizard.progress.phone', {
          n: currentIndex + 1,
          total: WIZARD_STEPS.length,
          title: t(`wizard.steps.${current}`),
        })}
      </p>
    </nav>
  );
}
