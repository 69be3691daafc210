import { act, fireEvent, screen } from '@testing-library/react';
import { type Resolver, useForm } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { Field } from './field';
import { Input } from './input';
import { PasswordField } from './password-field';

type TSignIn = { identifier: string; password: string };

// Both fields are required, so an empty submit makes both invalid at once.
const resolver: Resolver<TSignIn> = async (values) => {
  const errors = Object.fromEntries(
    Object.entries(values)
      .filter(([, value]) => value === '')
      .map(([name]) => [name, { type: 'required', message: `${name} is required` }]),
  );
  return Object.keys(errors).length > 0 ? { values: {}, errors } : { values, errors: {} };
};

function SignInForm() {
  const form = useForm<TSignIn>({ resolver, defaultValues: { identifier: '', password: '' } });
  const { errors } = form.formState;
  return (
    <form aria-label="sign in" onSubmit={form.handleSubmit(() => undefined)}>
      <Field id="identifier" label="Identifier" error={errors.identifier?.message}>
        {(aria) => <Input {...aria} {...form.register('identifier')} />}
      </Field>
      <PasswordField
        id="password"
        label="Password"
        hint="At least 8 characters"
        error={errors.password?.message}
        autoComplete="current-password"
        register={form.register}
        name="password"
      />
    </form>
  );
}

describe('password field', () => {
  it('an empty submit focuses the field above it, the first invalid one on the screen', async () => {
    await renderWithProviders(<SignInForm />, { lang: 'en' });
    await act(async () => {
      fireEvent.submit(screen.getByRole('form', { name: 'sign in' }));
    });
    expect(document.activeElement).toBe(screen.getByLabelText('Identifier'));
    expect(screen.getAllByRole('alert').map((a) => a.textContent)).toEqual([
      'identifier is required',
      'password is required',
    ]);
  });

  it('is named by its label, described by its hint and error, and registered under its name', async () => {
    await renderWithProviders(<SignInForm />, { lang: 'en' });
    const input = screen.getByLabelText('Password') as HTMLInputElement;
    fireEvent.change(screen.getByLabelText('Identifier'), { target: { value: 'ana' } });
    await act(async () => {
      fireEvent.submit(screen.getByRole('form', { name: 'sign in' }));
    });
    expect(document.activeElement).toBe(input);
    expect(input.type).toBe('password');
    expect(input.name).toBe('password');
    expect(input.autocomplete).toBe('current-password');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toBe('password-hint password-error');
    expect(
      screen.getByRole('button', { name: 'Show password' }).getAttribute('aria-controls'),
    ).toBe('password');
  });
});
