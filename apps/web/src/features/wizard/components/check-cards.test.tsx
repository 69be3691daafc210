import sharedEn from '@portico/shared/locales/en.json';
import sharedEs from '@portico/shared/locales/es.json';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { initialWizardState } from '../state/wizard-reducer';
import { fill, serverIp } from '../test/validation-step-harness';
import { DnsCheckCard } from './dns-check-card';
import { SshCheckCard } from './ssh-check-card';

const shared = { en: sharedEn, es: sharedEs };
const count = (haystack: string, needle: string) => haystack.split(needle).length - 1;

const domain = 'app.example.com';

describe.each(['en', 'es'] as const)('check cards say each thing once (%s)', (lang) => {
  // Before: "SSH connection failed" as a title above "SSH connection failed: …", and the
  // propagation delay both in the cause and in the note under it.
  it('a DNS failure: the cause once, "48" once, no second status sentence', async () => {
    const cause = fill(shared[lang].checks.dns.pointsElsewhere, {
      domain,
      addresses: '198.51.100.7',
      expectedIp: serverIp,
    });
    const text = {
      key: 'checks.dns.pointsElsewhere',
      params: { domain, addresses: '198.51.100.7', expectedIp: serverIp },
    };
    const dns = {
      ...initialWizardState().dns,
      status: 'failed' as const,
      error: text,
      result: {
        isValid: false,
        resolvedIps: ['198.51.100.7'],
        expectedIp: serverIp,
        error: cause,
        text,
      },
    };
    await renderWithProviders(<DnsCheckCard dns={dns} domain={domain} serverIp={serverIp} />, {
      lang,
    });
    const card = screen.getByTestId('wizard-dns').textContent ?? '';
    expect(screen.getByTestId('wizard-dns-error').textContent).toBe(cause);
    expect(count(card, '48')).toBe(1);
    expect(count(card, cause)).toBe(1);
  });

  it('an SSH failure: the server sentence alone, "connection failed" once', async () => {
    const cause = fill(shared[lang].checks.ssh.failed, {
      cause: shared[lang].checks.ssh.cause.authFailed,
    });
    const ssh = {
      status: 'failed' as const,
      result: null,
      error: {
        key: 'checks.ssh.failed',
        params: { cause: { key: 'checks.ssh.cause.authFailed' } },
      },
    };
    await renderWithProviders(<SshCheckCard ssh={ssh} />, { lang });
    expect(screen.getByTestId('wizard-ssh-error').textContent).toBe(cause);
    // The card is its heading, its badge and that sentence: nothing else says it failed.
    const heading = lang === 'en' ? 'SSH connection' : 'Conexión SSH';
    const badge = lang === 'en' ? 'Failed' : 'Fallido';
    expect(screen.getByTestId('wizard-ssh').textContent).toBe(`${heading}${badge}${cause}`);
  });

  it('without a known cause, the generic title and advice speak', async () => {
    const ssh = { status: 'failed' as const, result: null, error: null };
    await renderWithProviders(<SshCheckCard ssh={ssh} />, { lang });
    const alert = screen.getByTestId('wizard-ssh-error').textContent ?? '';
    expect(alert).toContain(lang === 'en' ? 'SSH connection failed' : 'La conexión SSH ha fallado');
    expect(alert).toContain(
      lang === 'en' ? 'Please verify your SSH credentials' : 'Verifica tus credenciales SSH',
    );
  });
});
