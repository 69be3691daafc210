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
  emailVerified: true,
  emailCode: null,
  webhook: { origin: 'https://hooks.example.com', hint: 'services/…' },
};

/** What the server answers to the e-mail verification calls (its real words for a wrong code). */
const VERIFY_ANSWERS = {
  wrong: {
    statusCode: 400,
    code: 'email_code_invalid',
    message: 'Ese código no es correcto. Intentos restantes: 4.',
  },
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
    if (url === '/api/account/notifications/email/code') {
      return Response.json({
        ...settings,
        emailCode: { sentTo: settings.email, expiresAt: '2026-12-06T14:35:00.000Z' },
      });
    }
    if (url === '/api/account/notifications/email/verify') {
      const { code } = JSON.parse(String(init?.body)) as { code: string };
      if (code !== '123456') return Response.json(VERIFY_ANSWERS.wrong, { status: 400 });
      return Response.json({ ...settings, emailVerified: true, emailCode: null });
    }
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
      webhook: {
        delivered: false,
        error: 'The webhook answered with a 4xx status instead of 2xx.',
      },
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
      ['Webhook: The webhook answered with a 4xx status instead of 2xx.', 'false'],
    ]);
  });
});

describe('settings: notifications say one thing at a time', () => {
  const nothing: TNotificationSettings = {
    ...stored,
    smtpConfigured: false,
    emailVerified: false,
    webhook: null,
  };

  it.each([
    ['en', 'Nowhere to send it: set a webhook (e-mail is not set up on this Portico).'],
    [
      'es',
      'No hay adónde enviarla: configura un webhook (el correo no está configurado en este Portico).',
    ],
  ] as const)(
    'without SMTP (%s): e-mail unticked and unavailable, the test off with its reason',
    async (lang, reason) => {
      const writes = serve(nothing);
      await renderWithProviders(<NotificationsSection />, { lang });
      const checkbox = await screen.findByRole('checkbox');
      // Stored on, but this Portico cannot send e-mail: never shown ticked.
      expect(checkbox.getAttribute('aria-checked')).toBe('false');
      expect(checkbox.hasAttribute('disabled')).toBe(true);
      const button = screen.getByTestId('notifications-test');
      expect(button.hasAttribute('disabled')).toBe(true);
      expect(screen.getByTestId('notifications-test-nowhere').textContent).toBe(reason);
      expect(button.getAttribute('aria-describedby')).toBe('notifications-test-nowhere');
      expect(screen.queryByTestId('notifications-email-verification')).toBeNull();
      fireEvent.click(button);
      expect(writes).toEqual([]);
    },
  );

  it('with e-mail off and no webhook the test is off, saying what to turn on', async () => {
    serve({ ...stored, emailEnabled: false, webhook: null });
    await renderWithProviders(<NotificationsSection />, { lang: 'en' });
    const checkbox = await screen.findByRole('checkbox');
    expect(checkbox.getAttribute('aria-checked')).toBe('false');
    expect(screen.getByTestId('notifications-test').hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('notifications-test-nowhere').textContent).toBe(
      'Nowhere to send it: turn on e-mail alerts or set a webhook, then save.',
    );
  });

  it('with a webhook the test is on and no reason is shown', async () => {
    serve({ ...stored, smtpConfigured: false });
    await renderWithProviders(<NotificationsSection />, { lang: 'en' });
    const button = await screen.findByTestId('notifications-test');
    expect(button.hasAttribute('disabled')).toBe(false);
    expect(screen.queryByTestId('notifications-test-nowhere')).toBeNull();
  });
});

describe('settings: verifying the alert address', () => {
  const unverified: TNotificationSettings = { ...stored, emailVerified: false, webhook: null };

  it('an unverified address: a code is sent, a wrong one is refused in place, the right one verifies (es)', async () => {
    const writes = serve(unverified);
    await renderWithProviders(<NotificationsSection />, { lang: 'es' });
    const panel = await screen.findByTestId('notifications-email-verification');
    expect(panel.textContent).toContain(
      'Sin verificar: no se envía ningún aviso ni prueba a esta dirección hasta que escribas el código que Portico envía allí.',
    );
    expect(screen.getByTestId('notifications-test').hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('notifications-test-nowhere').textContent).toBe(
      'No hay adónde enviarla: verifica tu dirección de correo o configura un webhook.',
    );
    fireEvent.click(screen.getByTestId('notifications-email-send-code'));
    const field = (await screen.findByLabelText('Código del correo')) as HTMLInputElement;
    expect(panel.textContent).toMatch(
      /Sin verificar: código enviado a ana@example\.com\. Escríbelo aquí; es válido hasta las \d\d:\d\d\./,
    );
    expect(screen.getByTestId('notifications-email-send-code').textContent).toBe(
      'Enviar un código nuevo',
    );
    fireEvent.change(field, { target: { value: '12' } });
    fireEvent.click(screen.getByTestId('notifications-email-verify'));
    expect(await screen.findByText('Escribe el código de 6 cifras del correo.')).toBeTruthy();
    fireEvent.change(field, { target: { value: '654321' } });
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(
      await screen.findByText('Ese código no es correcto. Intentos restantes: 4.'),
    ).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(field, { target: { value: '123 456' } });
    fireEvent.click(screen.getByTestId('notifications-email-verify'));
    const verified = await screen.findByTestId('notifications-email-verified');
    expect(verified.textContent).toBe('Verificada: los avisos van allí.');
    expect(screen.getByTestId('notifications-test').hasAttribute('disabled')).toBe(false);
    // Enter in the code field verified; it never saved the settings form around it.
    expect(writes.map((w) => [w.url, w.body])).toEqual([
      ['/api/account/notifications/email/code', null],
      ['/api/account/notifications/email/verify', { code: '654321' }],
      ['/api/account/notifications/email/verify', { code: '123456' }],
    ]);
  });

  it('a verified address says so in English, with no code to enter', async () => {
    serve({ ...stored, webhook: null });
    await renderWithProviders(<NotificationsSection />, { lang: 'en' });
    expect((await screen.findByTestId('notifications-email-verified')).textContent).toBe(
      'Verified: alerts go there.',
    );
    expect(screen.queryByTestId('notifications-email-verification')).toBeNull();
  });
});
