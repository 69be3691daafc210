import type * as React from 'react';
import { Field } from './field';
import { PasswordInput } from './password-input';

type TPasswordFieldProps = Omit<React.ComponentProps<typeof Field>, 'children'> &
  Omit<React.ComponentProps<typeof PasswordInput>, 'id' | 'className'>;

/** A labelled password with its show/hide toggle: Field's label, hint and error around it. */
export function PasswordField({
  id,
  label,
  hint,
  error,
  className,
  ...input
}: TPasswordFieldProps) {
  return (
    <Field id={id} label={label} hint={hint} error={error} className={className}>
      {(aria) => <PasswordInput {...aria} {...input} />}
    </Field>
  );
}
