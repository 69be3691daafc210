import type * as React from 'react';
import type { FieldValues, Path, UseFormRegister } from 'react-hook-form';
import { Field } from './field';
import { PasswordInput } from './password-input';

type TPasswordFieldProps<T extends FieldValues> = Omit<
  React.ComponentProps<typeof Field>,
  'children'
> &
  Omit<React.ComponentProps<typeof PasswordInput>, 'id' | 'className' | 'name'> & {
    register: UseFormRegister<T>;
    name: Path<T>;
  };

/**
 * A form's password with its show/hide toggle: Field's label, hint and error around it.
 * It registers the field in its own render, as the Field render props beside it do: the form
 * focuses the first invalid field in the order fields were registered, so registering in the
 * parent's render (a spread `register()` prop) would put every password before the fields above.
 */
export function PasswordField<T extends FieldValues>({
  id,
  label,
  hint,
  error,
  className,
  register,
  name,
  ...input
}: TPasswordFieldProps<T>) {
  return (
    <Field id={id} label={label} hint={hint} error={error} className={className}>
      {(aria) => <PasswordInput {...aria} {...input} {...register(name)} />}
    </Field>
  );
}
