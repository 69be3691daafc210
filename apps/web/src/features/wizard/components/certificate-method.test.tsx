import sharedEn from '@portico/shared/locales/en.json';
import sharedEs from '@portico/shared/locales/es.json';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import * as React from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '@/locales/en.json';
import es from '@/locales/es.json';
import { stubFetch } from '@/test/fetch';
import { renderWithProviders } from '@/test/render';
import { initialWizardState, wizardReducer } from '../state/wizard-reducer';
import { ValidationStep } from './validation-step';

const serverIp = '203.0.113.10';
const fill = (text: string, params: Record<string, string>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, k: string) => params[k] ?? '');

afterEach(() => vi.unstubAllGlobals());

/** The DNS check step entered after step one with `domain`; the step shown as data-step. */
function Harness({ domain }: { domain: string }) {
  const [state, dispatch] = React.useReducer(wizardReducer, undefined, () =>
    wizardReducer(
      wizardReducer(initialWizardState(), {
        type: 'serverInfoSubmitted',
        info: {
          serverIp,
          domain,
          sshUser: 'root',
          sshPort: 22,
          sshPassword: 'pw',
          email: '',
          sshServerId: null,
        },
      }),
      { type: 'next' },
    ),
  );
  return (
    <div data-testid="harness" data-step={state.step}>
      <ValidationStep state={state} dispatch={dispatch} />
    </div>
  );
}

/** Both checks pass; answers what the DNS check asked for (and `more` routes). */
function checksPass(more: Parameters<typeof stubFetch>[0] = {}) {
  return stubFetch({
    ...more,
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

  it('offers the wildcard certificate the server says covers the name, as a radio of its own (es)', async () => {
    const wildcard = {
      holderId: '00000000-0000-4000-8000-000000000045',
      domain: '*.example.com',
      expiresAt: '2027-02-01T00:00:00Z',
    };
    const { calls } = checksPass({
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
    const { calls } = checksPass({
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
