import type {
  TNotificationSettings,
  TNotificationTestResult,
} from '@portico/shared/notifications/schemas';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { stubResizeObserver } from '@/test/resize-observer';
import { NotificationsSection } from './notifications-section';

const stored: TNotificationSettings = {
  email: 'ana@example.com',
  smtpConfigured: true,
  emailEnabled: true,
  webhook: { origin: 'https://hooks.example.com', hint: 'services/…' },
};

/** The API as the section calls it; every write is recorded with its body. */
function serve(settings: TNotificationSettings, test?: TNotificationTestResult) {
  const writes: { method: string; url: string; body: unknown }[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    if (url === '/api/csrf-token') return Response.json({ token: 't' });
    if (method !== 'GET') {
      writes.push({ method, url, body: init?.body ? JSON.parse(String(init.body)) : null });
    }
    if (url === '/api/account/notifications' && method === 'GET') return Response.json(settings);
    if (url === '/api/account/notifications' && method === 'PUT') {
      return Response.json({
        ...settings,
        webhook: { origin: 'https://new.example.com', hint: 'x' },
      });
    }
    if (url === '/api/account/notifications/test' && test) return Response.json(test);
    throw new Error(`unexpected ${method} ${url}`);
  });
  return writes;
}

stubResizeObserver();
afterEach(() => {
  vi.restoreAllMocks();
});

describe('settings: notifications', () => {
  it('shows the stored webhook by its origin only, and saves a new URL', async () => {
    const writes = serve(stored);
    await renderWithProviders(<NotificationsSection />, { lang: 'en' });
    const note = await screen.findByTestId('notifications-webhook-stored');
    expect(note.textContent).toContain('A webhook is set: https://hooks.example.com/services/…');
    const field = screen.getByLabelText('Webhook URL') as HTMLInputElement;
    expect(field.value).toBe('');
    fireEvent.change(field, { target: { value: 'https://new.example.com/hook/abc' } });
    fireEvent.click(screen.getByTestId('notifications-save'));
    await waitFor(() => expect(writes).toHaveLength(1));
    expect(writes[0]).toEqual({
      method: 'PUT',
      url: '/api/account/notifications',
      body: { emailEnabled: true, webhookUrl: 'https://new.example.com/hook/abc' },
    });
    await waitFor(() => expect(field.value).toBe(''));
  });

  it('refuses a URL that is not http(s) in the screen language and sends nothing', async () => {
    const writes = serve({ ...stored, webhook: null });
    await renderWithProviders(<NotificationsSection />, { lang: 'es' });
    const field = (await screen.findByLabelText('URL del webhook')) as HTMLInputElement;
    fireEvent.change(field, { target: { value: 'ftp://files.example.com/x' } });
    fireEvent.click(screen.getByTestId('notifications-save'));
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText(/^Escribe una URL http:\/\/ o https:\/\//)).toBeTruthy();
    expect(writes).toEqual([]);
  });

  it('sends a test and says what each channel did, with the reason of a failure', async () => {
    serve(stored, {
      email: { delivered: true, error: null },
      webhook: { delivered: false, error: 'The webhook answered 404.' },
    });
    await renderWithProviders(<NotificationsSection />, { lang: 'en' });
    fireEvent.click(await screen.findByTestId('notifications-test'));
    const result = await screen.findByTestId('notifications-test-result');
    const lines = [...result.querySelectorAll('li')].map((li) => [
      li.textContent,
      li.getAttribute('data-delivered'),
    ]);
    expect(lines).toEqual([
      ['E-mail: delivered', 'true'],
      ['Webhook: The webhook answered 404.', 'false'],
    ]);
  });
});
