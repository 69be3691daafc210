import sharedEn from '@portico/shared/locales/en.json';
import sharedEs from '@portico/shared/locales/es.json';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '@/locales/en.json';
import es from '@/locales/es.json';
import { renderWithProviders } from '@/test/render';
import { DnsChallengeSection } from './dns-challenge-section';

const ID = '00000000-0000-4000-8000-000000000041';
const DNS_URL = `/api/proxy-configurations/${ID}/certificate/dns`;
const SECRET = 'c2VjcmV0LXRzaWcta2V5LW9mLXRoZS1sYWI=';

type TWrite = { method: string; body: unknown };

/** Answers GET …/certificate/dns with `stored`; PUT with `refusal` (once) or the view; DELETE 200. */
function serve(stored: unknown, refusal?: { key: string; message: string }) {
  const writes: TWrite[] = [];
  let refuse = refusal;
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    if (url === '/api/csrf-token') return Response.json({ token: 't' });
    if (url !== DNS_URL) throw new Error(`unexpected ${url}`);
    if (method === 'GET') return Response.json({ dnsChallenge: stored });
    writes.push({ method, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    if (method === 'PUT' && refuse) {
      const { key, message } = refuse;
      refuse = undefined;
      return Response.json(
        { statusCode: 400, code: 'validation_error', message, text: { key, params: {} } },
        { status: 400 },
      );
    }
    if (method === 'PUT') return Response.json(stored);
    return Response.json({ success: true });
  });
  return writes;
}

const view = (change: Record<string, unknown> = {}) => ({
  provider: 'rfc2136',
  includeApex: false,
  serverIp: '203.0.113.10',
  updatedAt: '2026-12-01T10:00:00.000Z',
  ...change,
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the proxy's DNS-01 section", () => {
  it('says HTTP-01 when there is no DNS challenge, and offers DNS-01', async () => {
    serve(null);
    await renderWithProviders(<DnsChallengeSection proxyId={ID} domain="app.example.com" />, {
      lang: 'es',
    });
    const section = await screen.findByTestId('dns-challenge');
    expect(section.getAttribute('data-method')).toBe('http-01');
    expect(screen.getByTestId('dns-challenge-method').textContent).toBe(es.certificate.dns.http01);
    expect(screen.getByTestId('dns-challenge-open').textContent).toBe(es.certificate.dns.use);
    expect(screen.queryByTestId('dns-challenge-remove')).toBeNull();
  });

  it('says the provider, never the credentials, and replaces them write-only (en, then es)', async () => {
    const writes = serve(view(), {
      key: 'validation.dns01.serverAddress',
      message: sharedEn.validation.dns01.serverAddress,
    });
    const { i18n } = await renderWithProviders(
      <DnsChallengeSection proxyId={ID} domain="app.example.com" />,
      { lang: 'en' },
    );
    expect((await screen.findByTestId('dns-challenge-method')).textContent).toBe(
      'DNS-01 via RFC 2136 (your own DNS server, TSIG key).',
    );
    fireEvent.click(screen.getByTestId('dns-challenge-open'));
    const dialog = await screen.findByTestId('dns-challenge-form');
    // The form starts empty: nothing stored is read back.
    // The fields load with the form (a chunk of their own).
    const secret = (await within(dialog).findByTestId('dns-field-secret')) as HTMLInputElement;
    expect(secret.value).toBe('');
    expect(secret.type).toBe('password');
    expect((within(dialog).getByTestId('dns-provider') as HTMLSelectElement).value).toBe('rfc2136');

    // A secret that is not base64: refused on its field in English, nothing sent.
    fireEvent.change(within(dialog).getByTestId('dns-field-server'), {
      target: { value: '198.18.0.53' },
    });
    fireEvent.change(within(dialog).getByTestId('dns-field-keyName'), {
      target: { value: 'certbot.' },
    });
    fireEvent.change(secret, { target: { value: 'not base64 at all!' } });
    fireEvent.click(within(dialog).getByTestId('dns-challenge-save'));
    expect(await within(dialog).findByText(sharedEn.validation.dns01.secretBase64)).toBeTruthy();
    expect(writes).toEqual([]);

    // Valid fields go out; the server's refusal is shown, and again in Spanish after a switch.
    fireEvent.change(secret, { target: { value: SECRET } });
    fireEvent.click(within(dialog).getByTestId('dns-challenge-save'));
    const problem = await within(dialog).findByTestId('dns-challenge-problem');
    expect(problem.textContent).toBe(sharedEn.validation.dns01.serverAddress);
    expect(writes).toEqual([
      {
        method: 'PUT',
        body: {
          credentials: {
            provider: 'rfc2136',
            server: '198.18.0.53',
            port: 53,
            keyName: 'certbot.',
            algorithm: 'HMAC-SHA256',
            secret: SECRET,
          },
          includeApex: false,
        },
      },
    ]);
    await act(() => i18n.changeLanguage('es'));
    expect(within(dialog).getByTestId('dns-challenge-problem').textContent).toBe(
      sharedEs.validation.dns01.serverAddress,
    );

    // Saved: the dialog closes and nothing typed stays on the page.
    fireEvent.click(within(dialog).getByTestId('dns-challenge-save'));
    await waitFor(() => expect(screen.queryByTestId('dns-challenge-form')).toBeNull());
    expect(writes).toHaveLength(2);
    expect(document.body.innerHTML).not.toContain(SECRET);
    expect(screen.getByTestId('dns-challenge-method').textContent).toBe(
      'DNS-01 mediante RFC 2136 (tu propio servidor DNS, clave TSIG).',
    );
  });

  it('Cloudflare asks for its token only, checked by its own rule', async () => {
    const writes = serve(null);
    await renderWithProviders(<DnsChallengeSection proxyId={ID} domain="app.example.com" />, {
      lang: 'es',
    });
    fireEvent.click(await screen.findByTestId('dns-challenge-open'));
    const dialog = await screen.findByTestId('dns-challenge-form');
    fireEvent.change(await within(dialog).findByTestId('dns-provider'), {
      target: { value: 'cloudflare' },
    });
    expect(within(dialog).queryByTestId('dns-field-secret')).toBeNull();
    fireEvent.change(within(dialog).getByTestId('dns-field-apiToken'), {
      target: { value: 'short' },
    });
    fireEvent.click(within(dialog).getByTestId('dns-challenge-save'));
    expect(await within(dialog).findByText(sharedEs.validation.dns01.apiToken)).toBeTruthy();
    expect(writes).toEqual([]);
  });

  it('goes back to HTTP-01 after a confirmation; a wildcard cannot', async () => {
    const writes = serve(view({ provider: 'cloudflare' }));
    const { unmount } = await renderWithProviders(
      <DnsChallengeSection proxyId={ID} domain="app.example.com" />,
      { lang: 'es' },
    );
    fireEvent.click(await screen.findByTestId('dns-challenge-remove'));
    fireEvent.click(await screen.findByTestId('dns-challenge-remove-confirm'));
    await waitFor(() => expect(writes).toEqual([{ method: 'DELETE', body: undefined }]));
    unmount();

    serve(view({ includeApex: true }));
    await renderWithProviders(<DnsChallengeSection proxyId={ID} domain="*.example.com" />, {
      lang: 'en',
    });
    expect((await screen.findByTestId('dns-challenge-method')).textContent).toBe(
      'DNS-01 via RFC 2136 (your own DNS server, TSIG key), with example.com itself too.',
    );
    expect(screen.queryByTestId('dns-challenge-remove')).toBeNull();
    expect(screen.getByTestId('dns-challenge-wildcard').textContent).toBe(
      en.certificate.dns.wildcardOnly,
    );
  });
});
