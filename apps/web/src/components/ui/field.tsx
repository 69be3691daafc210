import type * as React from 'react';
import { cn } from '@/lib/utils';
import { Label } from './label';

type TFieldProps = {
  id: string;
  label: React.ReactNode;
  /** Shown under the control, before any error. */
  hint?: React.ReactNode;
  error?: string;
  className?: string;
  /** Receives the aria props the control must carry so hint and error are announced. */
  children: (aria: {
    id: string;
    'aria-invalid': boolean;
    'aria-describedby': string | undefined;
  }) => React.ReactNode;
};

/** Label, control, hint and error wired together by id for screen readers. */
export function Field({ id, label, hint, error, className, children }: TFieldProps) {
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ');
  return (
    <div data-slot="field" className={cn('grid gap-2', className)}>
      <Label htmlFor={id}>{label}</Label>
      {children({
        id,
        'aria-invalid': Boolean(error),
        'aria-describedby': describedBy || undefined,
      })}
      {hint ? (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} role="alert" className="text-xs font-medium text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}
