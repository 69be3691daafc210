import type { TCertificateStatus } from '@portico/shared/certificates/schemas';
import type { TProxyConfiguration } from '@portico/shared/proxy/api';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import { formatDateMinutes } from '@/lib/format-date';
import { renderWithProviders } from '@/test/render';
import { CertificateSection } from './certificate-section';

const ID = '00000000-0000-4000-8000-000000000009';
const URL_BASE = `/api/proxy-configurations/${ID}/certificate`;

const proxy = {
  id: ID,
  domain: 'app.example.com',
  status: 'completed',
  sslConfigured: true,
} as TProxyConfiguration;

function status(change: Partial<TCertificateStatus> = {}): TCertificateStatus {
  return {
    configurationId: ID,
    domain: 'app.example.com',
    state: 'danger',
    daysLeft: 5,
    served: {
      fingerprint: 'AB:CD',
      notBefore: '2026-09-01T00:00:00.000Z',
      notAfter: '2026-11-29T00:00:00.000Z',
      issuer: 'Pebble Intermediate CA',
      names: ['app.example.com'],
    },
    check: {
      checkedAt: '2026-11-24T06:00:00.000Z',
      ok: false,
      problem: 'Nothing answered HTTPS at 203.0.113.10:443.',
      httpRedirects: true,
      httpProblem: null,
    },
    checkPending: false,
    onServer: {
      fingerprint: 'EF:01',
      notBefore: '2026-11-20T00:00:00.000Z',
      notAfter: '2027-02-18T00:00:00.000Z',
      readAt: '2026-11-20T00:05:00.000Z',
    },
    nginxNotReloaded: true,
    renewal: {
      method: 'none',
      where: null,
      working: false,
      setUpByPortico: false,
      notes: ['Nothing on this server renews certificates.', 'Install cron and deploy again.'],
      checkedAt: '2026-11-20T00:05:00.000Z',
    },
    recentlyIssued: { count: 1, days: 7, max: 5 },
    lastAction: null,
    held: { renew: null, renew_test: null },
    uploaded: null,
    ...change,
  };
}

/** Answers the status (`body`, or the next of `later` at each read after the first). */
function serve(
  body: TCertificateStatus,
  refusal?: { code: string; message: string },
  later: TCertificateStatus[] = [],
) {
  const writes: string[] = [];
  let reads = 0;
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = String(input);
    if (url === '/api/csrf-token') return Response.json({ token: 't' });
    if (url === URL_BASE && (init?.method ?? 'GET') === 'GET') {
      reads += 1;
      return Response.json(
        reads === 1 ? body : (later[Math.min(reads - 2, later.length - 1)] ?? body),
      );
    }
    if (init?.method === 'POST') {
      writes.push(url);
      if (refusal) return Response.json({ statusCode: 429, ...refusal }, { status: 429 });
      return Response.json({ deploymentId: 'd1', status: 'queued' }, { status: 202 });
    }
    throw new Error(`unexpected ${url}`);
  });
  return writes;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the certificate section of the details page', () => {
  it('shows the served certificate, the failed check, nginx not reloaded and no renewal', async () => {
    serve(status());
    await renderWithProviders(<CertificateSection proxy={proxy} live onRunStarted={() => {}} />, {
      lang: 'en',
    });
    // The expiry in one format; its badge is the summary's, at the top of the page.
    const expires = await screen.findByTestId('certificate-expires');
    expect(expires.textContent).toMatch(/^Nov (28|29), 2026, \d{1,2}:\d{2} [AP]M$/);
    expect(screen.queryByTestId('certificate-badge')).toBeNull();
    expect(screen.getByTestId('certificate-issuer').textContent).toBe('Pebble Intermediate CA');
    expect(screen.getByTestId('certificate-names').textContent).toBe('app.example.com');
    expect(screen.getByTestId('certificate-fingerprint').textContent).toBe('AB:CD');
    const result = screen.getByTestId('certificate-check-result');
    expect(result.getAttribute('data-ok')).toBe('false');
    expect(result.textContent).toContain('Nothing answered HTTPS at 203.0.113.10:443.');
    expect(screen.getByTestId('certificate-not-reloaded').textContent).toContain(
      'nginx still serves the old certificate',
    );
    const renewal = screen.getByTestId('certificate-renewal');
    expect(renewal.textContent).toContain('Does not renew automatically');
    expect(renewal.textContent).toContain('Install cron and deploy again.');
  });

  it('Renew now asks first, then starts the run and follows it', async () => {
    const writes = serve(status());
    const started = vi.fn();
    await renderWithProviders(<CertificateSection proxy={proxy} live onRunStarted={started} />, {
      lang: 'es',
    });
    fireEvent.click(await screen.findByTestId('action-renew-now'));
    expect(writes).toEqual([]);
    fireEvent.click(await screen.findByTestId('renew-now-confirm'));
    await waitFor(() => expect(writes).toEqual([`${URL_BASE}/renew`]));
    await waitFor(() => expect(started).toHaveBeenCalledTimes(1));
  });

  it('offers no action while one runs, and says why', async () => {
    const run = { kind: 'renew_test' as const, deploymentId: 'd1', at: '2026-11-24T08:00:00Z' };
    serve(status({ lastAction: { ...run, status: 'running', finishedAt: null } }));
    await renderWithProviders(<CertificateSection proxy={proxy} live onRunStarted={() => {}} />, {
      lang: 'en',
    });
    await screen.findByTestId('certificate-issuer');
    expect(screen.getByTestId('action-test-renewal').hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('action-renew-now').hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('certificate-actions-hint').textContent).toBe(
      'A deployment or a certificate action of this proxy is running.',
    );
  });

  it('holds Renew now at its limit and says until when and why, in English', async () => {
    const retryAt = '2026-12-07T07:31:00.000Z';
    const writes = serve(
      status({ held: { renew: { limit: 'proxyDay', max: 2, retryAt }, renew_test: null } }),
    );
    await renderWithProviders(<CertificateSection proxy={proxy} live onRunStarted={() => {}} />, {
      lang: 'en',
    });
    await screen.findByTestId('certificate-issuer');
    expect(screen.getByTestId('action-renew-now').hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('action-test-renewal').hasAttribute('disabled')).toBe(false);
    const held = screen.getByTestId('certificate-action-held');
    expect(held.getAttribute('data-action')).toBe('renew');
    expect(held.textContent).toBe(
      `Renew now is available again from ${formatDateMinutes(retryAt)}: it already ran 2 times for this proxy in the last 24 hours, the most Portico allows. Let's Encrypt issues at most 5 certificates for the same names in 7 days, and going over blocks this domain's renewals for the rest of the week. Meanwhile the server keeps renewing the certificate on its own.`,
    );
    expect(screen.getByTestId('certificate-recently-issued').textContent).toContain(
      "1: Let's Encrypt allows 5 for the same names in 7 days",
    );
    fireEvent.click(screen.getByTestId('action-renew-now'));
    expect(screen.queryByTestId('renew-now-confirm')).toBeNull();
    expect(writes).toEqual([]);
  });

  it('holds Test renewal at its own limit, in Spanish, while Renew now stays available', async () => {
    const retryAt = '2026-12-06T09:05:00.000Z';
    serve(
      status({
        held: { renew: null, renew_test: { limit: 'proxyHour', max: 4, retryAt } },
        recentlyIssued: { count: 4, days: 7, max: 5 },
      }),
    );
    await renderWithProviders(<CertificateSection proxy={proxy} live onRunStarted={() => {}} />, {
      lang: 'es',
    });
    await screen.findByTestId('certificate-issuer');
    expect(screen.getByTestId('action-test-renewal').hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('action-renew-now').hasAttribute('disabled')).toBe(false);
    expect(screen.getByTestId('certificate-action-held').textContent).toBe(
      `Probar renovación vuelve a estar disponible a partir del ${formatDateMinutes(retryAt)}: ya se ejecutó 4 veces para este proxy en la última hora, el máximo que permite Portico.`,
    );
    const issued = screen.getByTestId('certificate-recently-issued');
    expect(screen.getByText('Certificados obtenidos en 7 días')).toBeTruthy();
    expect(issued.textContent).toContain(
      "4: Let's Encrypt permite 5 para los mismos nombres en 7 días",
    );
  });

  it("shows the server's refusal of a renewal that reached its limit meanwhile", async () => {
    const message =
      '"Renovar ahora" ya se ejecutó 2 veces para este proxy en las últimas 24 horas (…). Podrás renovar de nuevo a partir del 7 de diciembre de 2026 a las 7:31 UTC.';
    const retryAt = '2026-12-07T07:31:00.000Z';
    const held = status({
      held: { renew: { limit: 'proxyDay', max: 2, retryAt }, renew_test: null },
    });
    serve(status(), { code: 'renewal_limited', message }, [held]);
    const started = vi.fn();
    await renderWithProviders(
      <>
        <CertificateSection proxy={proxy} live onRunStarted={started} />
        <Toaster />
      </>,
      { lang: 'es' },
    );
    fireEvent.click(await screen.findByTestId('action-renew-now'));
    fireEvent.click(await screen.findByTestId('renew-now-confirm'));
    expect(await screen.findByText(message)).toBeTruthy();
    expect(started).not.toHaveBeenCalled();
    // Read again after the refusal: the button is held and says until when.
    await waitFor(() =>
      expect(screen.getByTestId('action-renew-now').hasAttribute('disabled')).toBe(true),
    );
    expect(screen.getByTestId('certificate-action-held').textContent).toContain(
      `Renovar ahora vuelve a estar disponible a partir del ${formatDateMinutes(retryAt)}`,
    );
  });

  it('lets a held action go once its minute has come', async () => {
    const retryAt = new Date(Date.now() + 1000).toISOString();
    serve(
      status({ held: { renew: { limit: 'proxyWeek', max: 4, retryAt }, renew_test: null } }),
      undefined,
      [status()],
    );
    await renderWithProviders(<CertificateSection proxy={proxy} live onRunStarted={() => {}} />, {
      lang: 'en',
    });
    await screen.findByTestId('certificate-issuer');
    expect(screen.getByTestId('action-renew-now').hasAttribute('disabled')).toBe(true);
    await waitFor(
      () => expect(screen.getByTestId('action-renew-now').hasAttribute('disabled')).toBe(false),
      { timeout: 8000 },
    );
    expect(screen.queryByTestId('certificate-action-held')).toBeNull();
  });

  it.each([
    [
      'en',
      "Test renewal asks certbot for a dry run of this certificate's renewal: nothing changes on the server. Renew now renews it on the server at once, reloads nginx and checks that the new certificate is served.",
    ],
    [
      'es',
      'Probar renovación pide a certbot un simulacro de la renovación de este certificado: no cambia nada en el servidor. Renovar ahora lo renueva en el servidor en el acto, recarga nginx y comprueba que se sirve el nuevo certificado.',
    ],
  ] as const)('the actions are explained in sentences (%s)', async (lang, hint) => {
    serve(status());
    await renderWithProviders(<CertificateSection proxy={proxy} live onRunStarted={() => {}} />, {
      lang,
    });
    await screen.findByTestId('certificate-issuer');
    expect(screen.getByTestId('certificate-actions-hint').textContent).toBe(hint);
  });

  it('claims nothing of a certificate that is not live on the server (es)', async () => {
    serve(status({ state: 'fine', renewal: { ...status().renewal!, working: true } }));
    const { container } = await renderWithProviders(
      <CertificateSection proxy={proxy} live={false} onRunStarted={() => {}} />,
    );
    expect((await screen.findByTestId('certificate-not-live')).textContent).toContain(
      'No hay ningún certificado publicado',
    );
    expect(container.textContent).not.toContain('Se renueva automáticamente');
    expect(screen.queryByTestId('certificate-renewal')).toBeNull();
    expect(screen.getByTestId('action-renew-now').hasAttribute('disabled')).toBe(true);
  });
});
