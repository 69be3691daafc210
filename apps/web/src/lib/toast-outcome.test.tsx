import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import { renderWithProviders } from '@/test/render';
import { ApiError } from './api-client';
import { toastFailure } from './toast-outcome';

async function shown(error: unknown, title: string, lang: 'en' | 'es' = 'en') {
  const { i18n } = await renderWithProviders(<Toaster />, { lang });
  act(() => toastFailure(error, i18n.t, title));
  const toast = await screen.findByText(title);
  return toast.closest('[data-slot="toast"]') as HTMLElement;
}

const conflict = new ApiError(409, '409: …', {
  statusCode: 409,
  code: 'domain_taken',
  message: 'Ese dominio ya está configurado en Portico.',
});

describe('failure toasts', () => {
  it("carry the server's translated reason under the title", async () => {
    const toast = await shown(conflict, 'No se pudo guardar la configuración', 'es');
    expect(toast.getAttribute('data-variant')).toBe('destructive');
    expect(toast.textContent).toContain('Ese dominio ya está configurado en Portico.');
  });

  it('say the generic text only when the server sent no reason', async () => {
    const toast = await shown(new ApiError(502, '502: <html>'), 'Login failed');
    expect(toast.querySelector('[data-slot="toast-description"]')?.textContent).toBe(
      'An error occurred. Please try again.',
    );
    expect(toast.textContent).not.toContain('<html>');
  });

  it('say the network text when no answer came', async () => {
    const toast = await shown(new TypeError('Failed to fetch'), 'Login failed');
    expect(toast.textContent).toContain('Network error. Please check your connection.');
  });

  it('never repeat the title as the description', async () => {
    const same = new ApiError(401, '401: …', {
      statusCode: 401,
      code: 'x',
      message: 'Login failed',
    });
    const toast = await shown(same, 'Login failed');
    expect(screen.getAllByText('Login failed')).toHaveLength(1);
    expect(toast.querySelector('[data-slot="toast-description"]')).toBeNull();
  });
});
