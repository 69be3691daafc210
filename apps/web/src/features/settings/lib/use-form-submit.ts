import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { toast } from '@/hooks/use-toast';
import { applyServerIssues } from '@/lib/form-errors';
import { toastFailure } from '@/lib/toast-outcome';
import { useSettingsTexts } from '@/lib/use-group-texts';

/**
 * A settings form's submit: send, then a toast saying it is done (or why not), with the
 * server's messages placed on the fields they name (a wrong current password on its field).
 */
export function useFormSubmit<T extends FieldValues, R>(options: {
  form: UseFormReturn<T>;
  send: (values: T) => Promise<R>;
  fields: readonly Path<T>[];
  fieldByCode?: Partial<Record<string, Path<T>>>;
  /** The toast on success (a translated title, perhaps a description), or nothing to say. */
  done?: (result: R, values: T) => string | { title: string; description?: string } | null;
  failed: string;
  onDone?: (result: R, values: T) => void;
}) {
  const { t } = useSettingsTexts();
  return options.form.handleSubmit(async (values) => {
    try {
      const result = await options.send(values);
      const said = options.done?.(result, values);
      if (said) toast(typeof said === 'string' ? { title: said } : said);
      options.onDone?.(result, values);
    } catch (error) {
      const placed = applyServerIssues(
        error,
        options.form.setError,
        options.fields,
        options.fieldByCode,
      );
      // Placed on its field, the server's reason is not said again in the toast.
      if (placed > 0) toast({ variant: 'destructive', title: options.failed });
      else toastFailure(error, t, options.failed);
    }
  });
}
