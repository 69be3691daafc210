import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { PasswordField } from './password-field';
import { PasswordInput } from './password-input';

describe.each([
  ['es', 'Mostrar contraseña', 'Ocultar contraseña'],
  ['en', 'Show password', 'Hide password'],
] as const)('password input (%s)', (lang, showLabel, hideLabel) => {
  it('toggles between hidden and shown, saying what the button will do', async () => {
    const { container } = await renderWithProviders(
      <PasswordInput id="pw" defaultValue="Secret123" />,
      {
        lang,
      },
    );
    const input = container.querySelector<HTMLInputElement>('#pw')!;
    expect(input.type).toBe('password');

    const toggle = screen.getByRole('button', { name: showLabel });
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    expect(toggle.getAttribute('aria-controls')).toBe('pw');
    expect(toggle.getAttribute('type')).toBe('button');

    fireEvent.click(toggle);
    expect(input.type).toBe('text');
    expect(input.value).toBe('Secret123');
    const hide = screen.getByRole('button', { name: hideLabel });
    expect(hide.getAttribute('aria-pressed')).toBe('true');

    fireEvent.click(hide);
    expect(input.type).toBe('password');
    expect(screen.getByRole('button', { name: showLabel })).toBe(toggle);
  });
});

describe('password field', () => {
  it('is named by its label, described by its hint and error, and passes the rest to the input', async () => {
    const ref = { current: null as HTMLInputElement | null };
    await renderWithProviders(
      <PasswordField
        id="pf"
        label="New password"
        hint="At least 8 characters"
        error="Too short"
        autoComplete="new-password"
        name="newPassword"
        ref={ref}
      />,
      { lang: 'en' },
    );
    const input = screen.getByLabelText('New password') as HTMLInputElement;
    expect(input.id).toBe('pf');
    expect(input.type).toBe('password');
    expect(input.name).toBe('newPassword');
    expect(input.autocomplete).toBe('new-password');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toBe('pf-hint pf-error');
    expect(screen.getByRole('alert').textContent).toBe('Too short');
    expect(ref.current).toBe(input);
    expect(
      screen.getByRole('button', { name: 'Show password' }).getAttribute('aria-controls'),
    ).toBe('pf');
  });
});
