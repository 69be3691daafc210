import type { LucideIcon } from 'lucide-react';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { BusyButton } from '@/components/ui/busy-button';
import { useInertUntilHydrated } from '@/hooks/use-hydrated';
import { toast } from '@/hooks/use-toast';
import { applyServerIssues } from '@/lib/form-errors';
import { toastFailure } from '@/lib/toast-outcome';

type TAuthPrefix = 'landing.login' | 'landing.register';

/**
 * The submit both landing forms share: call the API, toast success, or place the server's
 * field messages on their inputs and toast why it failed (texts under `prefix`).
 */
export function useAuthSubmit<T extends FieldValues, R>(options: {
  form: UseFormReturn<T>;
  prefix: TAuthPrefix;
  send: (values: T) => Promise<R>;
  fields: readonly Path<T>[];
  fieldByCode?: Partial<Record<string, Path<T>>>;
  /** Whether the answer means signed in (else a further step follows, without a toast). */
  succeeded?: (result: R) => boolean;
  /**
   * A refusal placed on a field is said there only, with no toast: on a phone the toast would
   * sit over the submit button of a one-field form (the two-factor step).
   */
  fieldOnly?: boolean;
}) {
  const { t } = useTranslation();
  const { form, prefix, send, fields, fieldByCode, succeeded, fieldOnly = false } = options;
  return form.handleSubmit(async (values) => {
    try {
      const result = await send(values);
      if (succeeded && !succeeded(result)) return;
      toast({ title: t(`${prefix}.success`), description: t(`${prefix}.successDescription`) });
    } catch (error) {
      const placed = applyServerIssues(error, form.setError, fields, fieldByCode);
      if (!(fieldOnly && placed)) toastFailure(error, t, t(`${prefix}.failed`));
    }
  });
}

export function AuthSubmitButton({
  pending,
  prefix,
  icon: Icon,
}: {
  pending: boolean;
  prefix: TAuthPrefix;
  icon: LucideIcon;
}) {
  const { t } = useTranslation();
  // On the prerendered landing page, until React holds the form: disabled (no native submit,
  // not even on Enter) but drawn as usual, so nothing flickers when it becomes live.
  const inert = useInertUntilHydrated('mt-2 w-full');
  return (
    <BusyButton
      busy={pending}
      icon={<Icon aria-hidden="true" />}
      busyLabel={t(`${prefix}.submitting`)}
      type="submit"
      className={inert.className}
      disabled={inert.disabled}
    >
      {t(`${prefix}.submit`)}
    </BusyButton>
  );
}
