import sharedEn from '@portico/shared/locales/en.json';
import sharedEs from '@portico/shared/locales/es.json';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '@/locales/en.json';
import es from '@/locales/es.json';
import { stubFetch } from '@/test/fetch';
import { renderWithProviders } from '@/test/render';
import { fill, ValidationStepHarness as Harness, serverIp } from '../test/validation-step-harness';

afterEach(() => vi.unstubAllGlobals());

/** Both checks pass; answers what the DNS check asked for. */
function checksPass() {
  return stubFetch({
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
});
