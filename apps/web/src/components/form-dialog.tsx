import type { TFunction } from 'i18next';
import type * as React from 'react';
import type { FieldError, FieldValues, Path, UseFormReturn } from 'react-hook-form';
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
import { applyServerIssues, fieldErrorText } from '@/lib/form-errors';
import { toastFailure } from '@/lib/toast-outcome';

/**
 * A dialog around one form (add or edit a saved server, a destination, a user's limits, a
 * proxy, a plan to apply, a sign-in again): it cannot be closed while the form's request runs,
 * so an answer never lands on a dialog the user left.
 */
export function FormDialog({
  open,
  onOpenChange,
  pending,
  title,
  description,
  className,
  testId,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  pending: boolean;
  title: string;
  description: string;
  className?: string;
  testId: string;
  children: React.ReactNode;
}) {
  return (
    <Dialog open={open} onOpenChange={(next) => (pending ? undefined : onOpenChange(next))}>
      <DialogContent className={className} data-testid={testId}>
        <DialogHeader>
          {/* A title may hold what a user typed (a domain, a name): it wraps rather than widen. */}
          <DialogTitle className="[overflow-wrap:anywhere]">{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        {children}
      </DialogContent>
    </Dialog>
  );
}

/** Cancel, and Save for the form `formId`: neither can be pressed while the save runs. */
export function FormDialogFooter({
  formId,
  pending,
  onCancel,
  cancelLabel,
  saveLabel,
  saveTestId,
  saveDisabled = false,
}: {
  formId: string;
  pending: boolean;
  /** Nothing to save yet (the form's data still loading). */
  saveDisabled?: boolean;
  onCancel: () => void;
  cancelLabel: string;
  saveLabel: string;
  saveTestId: string;
}) {
  return (
    <DialogFooter>
      <Button variant="outline" onClick={onCancel} disabled={pending}>
        {cancelLabel}
      </Button>
      <BusyButton
        busy={pending}
        type="submit"
        form={formId}
        disabled={saveDisabled}
        data-testid={saveTestId}
      >
        {saveLabel}
      </BusyButton>
    </DialogFooter>
  );
}

/** A field's error in the screen's language (the server's own words, or a schema key's text). */
export function fieldErrorOf<T extends FieldValues>(form: UseFormReturn<T>, t: TFunction) {
  return (name: Path<T>) =>
    fieldErrorText(form.formState.errors[name] as FieldError | undefined, t);
}

/**
 * A refused save: the server's issues shown on their fields, and a toast with its reason under
 * `title` (only when no field took the refusal, with `toastWhenPlaced` false).
 */
export function showSaveFailure<T extends FieldValues>(
  error: unknown,
  form: Pick<UseFormReturn<T>, 'setError'>,
  options: {
    fields: readonly Path<T>[];
    fieldByCode?: Partial<Record<string, Path<T>>>;
    t: TFunction;
    title: string;
    toastWhenPlaced: boolean;
  },
): void {
  const placed = applyServerIssues(error, form.setError, options.fields, options.fieldByCode);
  if (placed === 0 || options.toastWhenPlaced) toastFailure(error, options.t, options.title);
}
