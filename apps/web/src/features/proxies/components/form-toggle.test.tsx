import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '@/locales/en.json';
import es from '@/locales/es.json';
import { stubFetch } from '@/test/fetch';
import { renderWithProviders } from '@/test/render';
import { DnsChallengeSection } from './dns-challenge-section';
import { UploadedCertificate } from './uploaded-certificate';

const ID = '00000000-0000-4000-8000-000000000042';

afterEach(() => vi.unstubAllGlobals());

/** Presses the toggle twice: the form opens under it, then goes; aria-expanded says which. */
async function opensAndCloses(toggleId: string, formId: string) {
  const toggle = await screen.findByTestId(toggleId);
  expect(toggle.getAttribute('aria-expanded')).toBe('false');
  expect(screen.queryByTestId(formId)).toBeNull();
  fireEvent.click(toggle);
  expect(toggle.getAttribute('aria-expanded')).toBe('true');
  expect(await screen.findByTestId(formId)).toBeTruthy();
  fireEvent.click(toggle);
  expect(toggle.getAttribute('aria-expanded')).toBe('false');
  expect(screen.queryByTestId(formId)).toBeNull();
}

// The two certificate sections share one toggle (FormToggle): these fail if either loses it.
describe("a certificate section's use / replace toggle", () => {
  it('the upload: "Upload a certificate" opens the form and closes it; "Replace" once one is stored, beside its remove (es)', async () => {
    const { unmount } = await renderWithProviders(
      <UploadedCertificate proxyId={ID} uploaded={null} />,
      { lang: 'es' },
    );
    expect(screen.getByTestId('upload-open').textContent).toBe(es.certificate.upload.open);
    expect(screen.queryByTestId('upload-remove')).toBeNull();
    await opensAndCloses('upload-open', 'upload-form');

    unmount();
    const uploaded = {
      issuer: 'CN=Own CA',
      names: ['app.example.com'],
      fingerprint: 'AB:CD',
      notBefore: '2026-12-01T10:00:00.000Z',
      notAfter: '2027-12-01T10:00:00.000Z',
      uploadedAt: '2026-12-01T10:00:00.000Z',
    };
    await renderWithProviders(<UploadedCertificate proxyId={ID} uploaded={uploaded} />, {
      lang: 'es',
    });
    expect(screen.getByTestId('upload-open').textContent).toBe(es.certificate.upload.replace);
    expect(screen.getByTestId('upload-remove').textContent).toBe(es.certificate.upload.remove);
    await opensAndCloses('upload-open', 'upload-form');
  });

  it('the DNS challenge: "Use DNS-01" opens the credentials form and closes it; "Replace credentials" once stored (en)', async () => {
    let stored: unknown = null;
    stubFetch({
      [`GET /api/proxy-configurations/${ID}/certificate/dns`]: () => ({
        body: { dnsChallenge: stored },
      }),
    });
    const { unmount } = await renderWithProviders(
      <DnsChallengeSection proxyId={ID} domain="app.example.com" />,
      { lang: 'en' },
    );
    expect((await screen.findByTestId('dns-challenge-open')).textContent).toBe(
      en.certificate.dns.use,
    );
    await opensAndCloses('dns-challenge-open', 'dns-challenge-form');
    unmount();

    stored = {
      provider: 'rfc2136',
      includeApex: false,
      serverIp: '203.0.113.10',
      updatedAt: '2026-12-01T10:00:00.000Z',
    };
    await renderWithProviders(<DnsChallengeSection proxyId={ID} domain="app.example.com" />, {
      lang: 'en',
    });
    expect((await screen.findByTestId('dns-challenge-open')).textContent).toBe(
      en.certificate.dns.replace,
    );
    expect(screen.getByTestId('dns-challenge-remove').textContent).toBe(en.certificate.dns.remove);
    await opensAndCloses('dns-challenge-open', 'dns-challenge-form');
  });
});
