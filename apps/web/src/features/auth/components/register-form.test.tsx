import { fireEvent, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { sharedText as lookup } from '@/test/catalogs';
import { renderWithProviders } from '@/test/render';
import { LoginForm } from './login-form';
import { RegisterForm } from './register-form';

const valid = {
  username: 'jane_doe',
  email: 'jane@example.com',
  password: 'Secret123',
  confirmPassword: 'Secret123',
};

// Each register message with its English wording (docs/PRODUCT.md#validation-rules).
const registerCases = [
  {
    input: { username: 'ab' },
    field: 'username',
    key: 'validation.username.min',
    en: 'Username must be at least 3 characters long',
  },
  {
    input: { username: 'a'.repeat(31) },
    field: 'username',
    key: 'validation.username.max',
    en: 'Username must be no more than 30 characters',
  },
  {
    input: { username: 'jane doe!' },
    field: 'username',
    key: 'validation.username.pattern',
    en: 'Username can only contain letters, numbers, and underscores',
  },
  {
    input: { email: 'not-an-email' },
    field: 'email',
    key: 'validation.email.invalid',
    en: 'Please enter a valid email address',
  },
  {
    input: { password: 'Ab1', confirmPassword: 'Ab1' },
    field: 'password',
    key: 'validation.password.min',
    en: 'Password must be at least 8 characters long',
  },
  {
    input: { password: 'abcdefgh', confirmPassword: 'abcdefgh' },
    field: 'password',
    key: 'validation.password.complexity',
    en: 'Password must contain at least one uppercase letter, one lowercase letter, and one number',
  },
  {
    input: { confirmPassword: 'Secret124' },
    field: 'confirm-password',
    key: 'validation.password.mismatch',
    en: 'Passwords must match',
  },
] as const;

const ids: Record<string, string> = {
  username: 'register-username',
  email: 'register-email',
  password: 'register-password',
  confirmPassword: 'register-confirm-password',
};

function fill(container: HTMLElement, values: Record<string, string>): void {
  for (const [name, value] of Object.entries(values)) {
    const input = container.querySelector<HTMLInputElement>(`#${ids[name]}`);
    if (!input) throw new Error(`no input for ${name}`);
    fireEvent.change(input, { target: { value } });
  }
}

describe.each(['es', 'en'] as const)('register form in %s', (lang) => {
  it.each(registerCases)('shows "$en"', async ({ input, field, key, en }) => {
    const { container } = await renderWithProviders(<RegisterForm />, { lang });
    fill(container, { ...valid, ...input });
    fireEvent.submit(container.querySelector('form')!);
    const expected = lang === 'en' ? en : lookup('es', key);
    await waitFor(() =>
      expect(container.querySelector(`#register-${field}-error`)?.textContent).toBe(expected),
    );
    expect(lookup(lang, key)).toBe(expected);
    const control = container.querySelector(`#register-${field}`);
    expect(control?.getAttribute('aria-invalid')).toBe('true');
    expect(control?.getAttribute('aria-describedby')).toContain(`register-${field}-error`);
  });

  it('shows the password hint before anything is typed', async () => {
    const { container } = await renderWithProviders(<RegisterForm />, { lang });
    expect(container.querySelector('#register-password-hint')?.textContent).toBe(
      lookup(lang, 'validation.password.hint'),
    );
  });

  it('requires every field when submitted empty', async () => {
    const { container } = await renderWithProviders(<RegisterForm />, { lang });
    fireEvent.submit(container.querySelector('form')!);
    await waitFor(() =>
      expect(container.querySelector('#register-username-error')?.textContent).toBe(
        lookup(lang, 'validation.required'),
      ),
    );
    // The password and its confirmation too: "required", not "at least 8 characters" or
    // nothing at all.
    for (const field of ['email', 'password', 'confirm-password']) {
      expect(container.querySelector(`#register-${field}-error`)?.textContent, field).toBe(
        lookup(lang, 'validation.required'),
      );
    }
  });

  it('an empty confirmation under a typed password says it is required', async () => {
    const { container } = await renderWithProviders(<RegisterForm />, { lang });
    fill(container, { ...valid, confirmPassword: '' });
    fireEvent.submit(container.querySelector('form')!);
    await waitFor(() =>
      expect(container.querySelector('#register-confirm-password-error')?.textContent).toBe(
        lookup(lang, 'validation.required'),
      ),
    );
  });
});

describe.each(['es', 'en'] as const)('login form in %s', (lang) => {
  it('asks for the identifier and the password', async () => {
    const { container } = await renderWithProviders(<LoginForm />, { lang });
    fireEvent.submit(container.querySelector('form')!);
    await waitFor(() =>
      expect(container.querySelector('#login-identifier-error')?.textContent).toBe(
        lookup(lang, 'validation.identifier.required'),
      ),
    );
    expect(container.querySelector('#login-password-error')?.textContent).toBe(
      lookup(lang, 'validation.loginPassword.required'),
    );
    if (lang === 'en') {
      expect(container.textContent).toContain('Username or email is required');
      expect(container.textContent).toContain('Password is required');
    }
  });
});
