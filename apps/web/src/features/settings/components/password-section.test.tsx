import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { PasswordSection } from './password-section';

/** PUT /api/account/password answering `answer`; the bodies sent. */
function serve(answer: { endedSessions: number; revokedTokens: number }) {
  const sent: unknown[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = String(input);
    if (url === '/api/csrf-token') return Response.json({ token: 't' });
    if (url === '/api/account/password' && init?.method === 'PUT') {
      sent.push(JSON.parse(String(init.body)));
      return Response.json(answer);
    }
    throw new Error(`unexpected ${init?.method ?? 'GET'} ${url}`);
  });
  return sent;
}

afterEach(() => {
  vi.restoreAllMocks();
});

function fill(labels: { current: string; new: string; confirm: string }) {
  fireEvent.change(screen.getByLabelText(labels.current), { target: { value: 'Secret123' } });
  fireEvent.change(screen.getByLabelText(labels.new), { target: { value: 'Changed123' } });
  fireEvent.change(screen.getByLabelText(labels.confirm), { target: { value: 'Changed123' } });
}

describe('settings: password', () => {
  it('revokes the API tokens unless unticked (en)', async () => {
    const sent = serve({ endedSessions: 1, revokedTokens: 0 });
    await renderWithProviders(<PasswordSection />, { lang: 'en' });
    const box = screen.getByRole('checkbox', { name: 'Also revoke my API tokens' });
    expect(box.getAttribute('aria-checked')).toBe('true');
    fireEvent.click(box);
    expect(box.getAttribute('aria-checked')).toBe('false');
    fill({ current: 'Current password', new: 'New password', confirm: 'Confirm new password' });
    fireEvent.click(screen.getByTestId('password-save'));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({
      currentPassword: 'Secret123',
      newPassword: 'Changed123',
      revokeTokens: false,
    });
  });

  it('sends the box ticked by default (es)', async () => {
    const sent = serve({ endedSessions: 2, revokedTokens: 3 });
    await renderWithProviders(<PasswordSection />, { lang: 'es' });
    const box = screen.getByRole('checkbox', { name: 'Revocar también mis tokens de API' });
    expect(box.getAttribute('aria-checked')).toBe('true');
    fill({
      current: 'Contraseña actual',
      new: 'Contraseña nueva',
      confirm: 'Confirma la contraseña nueva',
    });
    fireEvent.click(screen.getByTestId('password-save'));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ revokeTokens: true });
  });
});
