import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/test/render';
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
