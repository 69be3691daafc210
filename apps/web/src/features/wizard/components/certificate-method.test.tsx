import sharedEn from '@portico/shared/locales/en.json';
import sharedEs from '@portico/shared/locales/es.json';
import type { TSshServer } from '@portico/shared/ssh-servers/schemas';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '@/locales/en.json';
import es from '@/locales/es.json';
import { stubFetch } from '@/test/fetch';
import { renderWithProviders } from '@/test/render';
import { aServer, someFacts } from '@/test/ssh-server';
import { fill, ValidationStepHarness as Harness, serverIp } from '../test/validation-step-harness';

afterEach(() => vi.unstubAllGlobals());

/** Both checks pass; answers what the DNS check asked for, the saved servers (if any) and `more`. */
function checksPass(servers: TSshServer[] = [], more: Parameters<typeof stubFetch>[0] = {}) {
  return stubFetch({
    ...more,
    'GET /api/ssh-servers': { body: { servers, nextCursor: null } },
    'POST /api/validate-dns': {
      body: { isValid: true, resolvedIps: [serverIp], expectedIp: serverIp, error: null },
    },
    'POST /api/test-ssh': {
      body: { connected: true, fingerprint: 'SHA256:x', error: null, text: null },
    },
  });
}

const dnsAsked = (calls: { url: string; body?: unknown }[]) =>
  calls
    .filter((c) => c.url === '/api/validate-dns')
    .map((c) => (c.body as { domain: string }).domain);

async function nextEnabled() {
  const next = screen.getByTestId('wizard-next') as HTMLButtonElement;
  await waitFor(() => expect(next.disabled).toBe(false));
  return next;
}

describe("the wizard's certificate method", () => {
  it('is HTTP-01 by default; DNS-01 shows the fields, says port 80 is not needed, refuses empty fields (es)', async () => {
    const { calls } = checksPass();
    await renderWithProviders(<Harness domain="app.example.com" />, { lang: 'es' });
    const card = await screen.findByTestId('wizard-certificate-method');
    expect(card.getAttribute('data-method')).toBe('http-01');
    expect((screen.getByTestId('wizard-method-http-01') as HTMLInputElement).checked).toBe(true);
    expect(screen.queryByTestId('dns-challenge-fields')).toBeNull();
    expect(screen.queryByTestId('wizard-dns01-note')).toBeNull();

    fireEvent.click(screen.getByTestId('wizard-method-dns-01'));
    expect(card.getAttribute('data-method')).toBe('dns-01');
    expect(within(card).getByTestId('dns-challenge-fields')).toBeTruthy();
    // A plain name has no apex to add.
    expect(screen.queryByTestId('wizard-dns-apex')).toBeNull();
    expect(screen.getByTestId('wizard-dns01-note').textContent).toBe(
      fill(es.certificate.dns.wizard.checkNote, { name: 'app.example.com' }),
    );

    fireEvent.click(await nextEnabled());
    expect(await screen.findByText(sharedEs.validation.dns01.serverAddress)).toBeTruthy();
    expect(screen.getByText(sharedEs.validation.dns01.secretBase64)).toBeTruthy();
    expect(screen.getByTestId('harness').getAttribute('data-step')).toBe('dns-validation');
    // The check asked for the name itself; nothing was stored by this step.
    expect(dnsAsked(calls)).toEqual(['app.example.com']);
    expect(calls.some((c) => c.url.includes('/certificate/dns'))).toBe(false);
  });

  it('a wildcard takes DNS-01 and says why; the check asks for the sample name, or the apex once it is served (en)', async () => {
    const { calls } = checksPass();
    await renderWithProviders(<Harness domain="*.example.com" />, { lang: 'en' });
    const card = await screen.findByTestId('wizard-certificate-method');
    expect(card.getAttribute('data-method')).toBe('dns-01');
    expect((screen.getByTestId('wizard-method-http-01') as HTMLInputElement).disabled).toBe(true);
    expect(screen.getByTestId('wizard-wildcard-why').textContent).toBe(
      fill(en.certificate.dns.wizard.wildcardWhy, { domain: '*.example.com' }),
    );
    await waitFor(() => expect(dnsAsked(calls)).toEqual(['portico-check.example.com']));
    expect(screen.getByTestId('wizard-dns01-note').textContent).toBe(
      fill(en.certificate.dns.wizard.checkNote, { name: 'portico-check.example.com' }),
    );

    // Serving the apex too: the check asks again, for the apex.
    await nextEnabled();
    fireEvent.click(screen.getByTestId('wizard-dns-apex'));
    await waitFor(() =>
      expect(dnsAsked(calls)).toEqual(['portico-check.example.com', 'example.com']),
    );

    // A bad token for Cloudflare is refused in English; a good one lets the wizard go on.
    fireEvent.change(screen.getByTestId('dns-provider'), { target: { value: 'cloudflare' } });
    const token = screen.getByTestId('dns-field-apiToken') as HTMLInputElement;
    expect(token.type).toBe('password');
    fireEvent.change(token, { target: { value: 'bad token' } });
    fireEvent.click(await nextEnabled());
    expect(await screen.findByText(sharedEn.validation.dns01.apiToken)).toBeTruthy();
    fireEvent.change(token, { target: { value: 'a'.repeat(40) } });
    expect(screen.queryByText(sharedEn.validation.dns01.apiToken)).toBeNull();
    fireEvent.click(await nextEnabled());
    await waitFor(() =>
      expect(screen.getByTestId('harness').getAttribute('data-step')).toBe('destination'),
    );
  });

  // Before: every provider was listed as if any server could run it.
  it.each([
    ['en', en],
    ['es', es],
  ] as const)(
    '%s: marks providers the chosen server does not offer, and will not go on with one',
    async (lang, web) => {
      const server = aServer({
        reachable: true,
        facts: someFacts({
          dnsPlugins: {
            installed: ['python3-certbot-dns-cloudflare'],
            offered: ['python3-certbot-dns-cloudflare', 'python3-certbot-dns-route53'],
          },
        }),
      });
      checksPass([server]);
      await renderWithProviders(<Harness domain="*.example.com" sshServerId={server.id} />, {
        lang,
      });
      const select = (await screen.findByTestId('dns-provider')) as HTMLSelectElement;
      const option = (value: string) =>
        select.querySelector<HTMLOptionElement>(`option[value="${value}"]`)!;
      await waitFor(() =>
        expect(option('ovh').textContent).toBe(
          fill(web.certificate.dns.unavailable, { provider: web.certificate.dns.providerName.ovh }),
        ),
      );
      expect(option('ovh').disabled).toBe(true);
      expect(option('route53').disabled).toBe(false);
      expect(option('route53').textContent).toBe(web.certificate.dns.providerName.route53);
      // The default provider (RFC 2136) is not offered here: said as an alert, and Next stays.
      const note = screen.getByTestId('dns-provider-offer');
      expect(note.getAttribute('data-offer')).toBe('not_offered');
      expect(note.getAttribute('role')).toBe('alert');
      expect(note.textContent).toBe(
        fill(web.certificate.dns.offer.not_offered, { package: 'python3-certbot-dns-rfc2136' }),
      );
      fireEvent.change(screen.getByTestId('dns-field-server'), { target: { value: '192.0.2.53' } });
      fireEvent.change(screen.getByTestId('dns-field-keyName'), { target: { value: 'certbot' } });
      fireEvent.change(screen.getByTestId('dns-field-secret'), {
        target: { value: 'OWSVqAbRnvm/d1obcIUzUl9pnLnCL21UShrNvZxFHfw=' },
      });
      fireEvent.click(await nextEnabled());
      expect(screen.getByTestId('harness').getAttribute('data-step')).toBe('dns-validation');
      // Route 53 is offered (installed by the deployment); Cloudflare is installed already.
      fireEvent.change(select, { target: { value: 'route53' } });
      expect(screen.getByTestId('dns-provider-offer').textContent).toBe(
        fill(web.certificate.dns.offer.offered, { package: 'python3-certbot-dns-route53' }),
      );
      expect((screen.getByTestId('dns-field-secretAccessKey') as HTMLInputElement).type).toBe(
        'password',
      );
      fireEvent.change(select, { target: { value: 'cloudflare' } });
      expect(screen.getByTestId('dns-provider-offer').getAttribute('data-offer')).toBe('installed');
    },
  );

  it('says what it does not know for a typed server: every provider listed, none refused', async () => {
    checksPass();
    await renderWithProviders(<Harness domain="*.example.com" />, { lang: 'en' });
    const select = (await screen.findByTestId('dns-provider')) as HTMLSelectElement;
    expect(Array.from(select.options).some((o) => o.disabled)).toBe(false);
    expect(screen.getByTestId('dns-provider-offer').getAttribute('data-offer')).toBe('unknown');
  });

  it('offers the wildcard certificate the server says covers the name, as a radio of its own (es)', async () => {
    const wildcard = {
      holderId: '00000000-0000-4000-8000-000000000045',
      domain: '*.example.com',
      expiresAt: '2027-02-01T00:00:00Z',
    };
    const { calls } = checksPass([], {
      'GET /api/certificates/wildcards': {
        body: { available: [wildcard] },
      },
    });
    await renderWithProviders(<Harness domain="c.example.com" />, {
      lang: 'es',
    });
    const card = await screen.findByTestId('wizard-certificate-method');
    const radio = (await screen.findByTestId('wizard-method-wildcard')) as HTMLInputElement;
    expect(radio.type).toBe('radio');
    expect(radio.name).toBe('certificate-method');
    const label = radio.closest('label')!;
    expect(label.textContent).toBe(
      fill(es.certificate.wildcard.wizard.method, { wildcard: '*.example.com' }) +
        fill(es.certificate.wildcard.wizard.methodHint, { wildcard: '*.example.com' }),
    );
    fireEvent.click(radio);
    expect(card.getAttribute('data-method')).toBe('wildcard');
    expect(screen.queryByTestId('dns-challenge-fields')).toBeNull();
    fireEvent.click(await nextEnabled());
    await waitFor(() =>
      expect(screen.getByTestId('harness').getAttribute('data-step')).toBe('destination'),
    );
    // The name itself was checked; the choice is sent only when Deploy is pressed.
    expect(dnsAsked(calls)).toEqual(['c.example.com']);
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it('offers no wildcard when none covers the name, nor asks for a name none could (en)', async () => {
    const { calls } = checksPass([], {
      'GET /api/certificates/wildcards': {
        body: { available: [] },
      },
    });
    const { unmount } = await renderWithProviders(<Harness domain="c.example.com" />, {
      lang: 'en',
    });
    await nextEnabled();
    expect(calls.map((c) => c.url)).toContain(
      '/api/certificates/wildcards?domain=c.example.com&serverIp=203.0.113.10',
    );
    expect(screen.queryByTestId('wizard-method-wildcard')).toBeNull();
    unmount();
    calls.length = 0;
    await renderWithProviders(<Harness domain="example.com" />, {
      lang: 'en',
    });
    await nextEnabled();
    expect(calls.some((c) => c.url.startsWith('/api/certificates/wildcards'))).toBe(false);
  });
});
