import sharedEn from '@portico/shared/locales/en.json';
import sharedEs from '@portico/shared/locales/es.json';
import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '@/test/fetch';
import { renderWithProviders } from '@/test/render';
import { fill, serverIp, ValidationStepHarness } from '../test/validation-step-harness';

const shared = { en: sharedEn, es: sharedEs };

const domain = 'app.example.com';
const elsewhere = { domain, addresses: '198.51.100.7', expectedIp: serverIp };

afterEach(() => vi.unstubAllGlobals());

/** Opens the step in Spanish, waits for `testId`, then switches the screen to English. */
async function switchedToEnglish(testId: string) {
  const { i18n } = await renderWithProviders(<ValidationStepHarness domain={domain} />, {
    lang: 'es',
  });
  const alert = await screen.findByTestId(testId);
  const spanish = alert.textContent;
  await act(async () => {
    await i18n.changeLanguage('en');
  });
  return { spanish, english: screen.getByTestId(testId).textContent };
}

// Before: the error was kept as the server's Spanish sentence and stayed Spanish after a switch
// to English, while every other word on the screen turned English.
describe('the checks re-render their errors in the language switched to', () => {
  it('a DNS failure', async () => {
    stubFetch({
      'POST /api/validate-dns': {
        body: {
          isValid: false,
          resolvedIps: ['198.51.100.7'],
          expectedIp: serverIp,
          error: fill(shared.es.checks.dns.pointsElsewhere, elsewhere),
          text: { key: 'checks.dns.pointsElsewhere', params: elsewhere },
        },
      },
    });
    const { spanish, english } = await switchedToEnglish('wizard-dns-error');
    expect(spanish).toBe(fill(shared.es.checks.dns.pointsElsewhere, elsewhere));
    expect(english).toBe(fill(shared.en.checks.dns.pointsElsewhere, elsewhere));
  });

  it('an SSH failure', async () => {
    const said = (lang: 'en' | 'es') =>
      fill(shared[lang].checks.ssh.failed, { cause: shared[lang].checks.ssh.cause.authFailed });
    stubFetch({
      'POST /api/validate-dns': {
        body: {
          isValid: true,
          resolvedIps: [serverIp],
          expectedIp: serverIp,
          error: null,
          text: null,
        },
      },
      'POST /api/test-ssh': {
        body: {
          connected: false,
          fingerprint: null,
          error: said('es'),
          text: {
            key: 'checks.ssh.failed',
            params: { cause: { key: 'checks.ssh.cause.authFailed' } },
          },
        },
      },
    });
    const { spanish, english } = await switchedToEnglish('wizard-ssh-error');
    expect(spanish).toBe(said('es'));
    expect(english).toBe(said('en'));
  });

  it('a check the server refused (too many tries)', async () => {
    stubFetch({
      'POST /api/validate-dns': {
        status: 429,
        body: {
          statusCode: 429,
          code: 'rate_limited',
          message: fill(shared.es.errors.rateLimited, { seconds: '30' }),
          text: { key: 'errors.rateLimited', params: { seconds: 30 } },
        },
      },
    });
    const { spanish, english } = await switchedToEnglish('wizard-dns-error');
    expect(spanish).toBe(fill(shared.es.errors.rateLimited, { seconds: '30' }));
    expect(english).toBe(fill(shared.en.errors.rateLimited, { seconds: '30' }));
  });

  it('a check that got no answer (the network)', async () => {
    stubFetch({
      'POST /api/validate-dns': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    const { spanish, english } = await switchedToEnglish('wizard-dns-error');
    expect(spanish).toBe(shared.es.errors.network);
    expect(english).toBe(shared.en.errors.network);
  });
});
