import type { TAdminProxyRow } from '@portico/shared/admin/api';
import type { TCertificateStatus } from '@portico/shared/certificates/schemas';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AdminSection } from '@/features/admin/components/admin-section';
import { ProxyCard } from '@/features/proxies/components/proxy-card';
import { ProxyDetailsPage } from '@/features/proxies/components/proxy-details-page';
import { aProxy, SCRIPT_FAILURE, SERVER_SITE } from '@/test/proxy';
import { pageOf } from '@/test/proxy-page';
import { renderWithProviders } from '@/test/render';

// One proxy, three screens (the owner's card, its details page, the admin's list): each says
// the same thing first, in either language (docs/PRODUCT.md#one-summary-per-proxy).

const id = '00000000-0000-4000-8000-000000000031';

/** A run that failed at its custom script after the HTTPS site and a 5-year certificate went live. */
const failedLive = aProxy({
  id,
  domain: 'app.example.com',
  status: 'failed',
  sslConfigured: true,
  serverSites: [SERVER_SITE],
  lastFailure: SCRIPT_FAILURE,
});

/** The same proxy after Reset state: pending, and nginx still serves it. */
const resetLive = { ...failedLive, status: 'pending' as const, lastFailure: null };

const certificate = (over: Partial<TCertificateStatus> = {}): TCertificateStatus => ({
  configurationId: id,
  domain: 'app.example.com',
  state: 'fine',
  daysLeft: 1825,
  served: {
    fingerprint: 'AB:CD',
    notBefore: '2026-11-22T00:00:00.000Z',
    notAfter: '2031-11-21T00:00:00.000Z',
    issuer: 'Pebble Intermediate CA',
    names: ['app.example.com'],
  },
  check: {
    checkedAt: '2026-11-22T16:06:00.000Z',
    ok: true,
    problem: null,
    httpRedirects: true,
    httpProblem: null,
  },
  checkPending: false,
  onServer: null,
  nginxNotReloaded: false,
  renewal: null,
  recentlyIssued: { count: 1, days: 7, max: 5 },
  lastAction: null,
  held: { renew: null, renew_test: null },
  uploaded: null,
  ...over,
});

const summaryOfCertificate = (status: TCertificateStatus) => ({
  state: status.state!,
  daysLeft: status.daysLeft,
  notAfter: status.served?.notAfter ?? null,
  checkFailed: false,
  nginxNotReloaded: false,
});

function adminRow(proxy: typeof failedLive): TAdminProxyRow {
  return {
    id: proxy.id,
    domain: proxy.domain,
    targetServer: proxy.targetServer,
    status: proxy.status,
    serving: 'https',
    adoptedFile: proxy.adoption?.file ?? null,
    lastFailure: proxy.lastFailure,
    createdAt: proxy.createdAt,
    userId: 'u2',
    username: 'bob',
    email: 'bob@example.com',
  };
}

function serve(proxy: typeof failedLive) {
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = String(input);
    if (url.startsWith('/api/deployment-logs/')) return Response.json([]);
    if (url === `/api/proxy-configurations/${id}/certificate`) return Response.json(certificate());
    if (url === `/api/proxy-configurations/${id}`) return Response.json(proxy);
    if (url.startsWith('/api/admin/all-proxies?')) {
      return Response.json(pageOf([adminRow(proxy)]));
    }
    if (url === '/api/admin/stats/users') return Response.json({ totalUsers: 2 });
    if (url === '/api/admin/stats/proxies-by-user') return Response.json([]);
    throw new Error(`unexpected ${url}`);
  });
}

/** What a summary says, in order: its badges, what is live, the failure, what to do. */
function said(summary: HTMLElement) {
  const part = (testId: string) => within(summary).queryByTestId(testId)?.textContent ?? null;
  return {
    state: part('summary-state'),
    tone: within(summary).getByTestId('summary-state').getAttribute('data-tone'),
    serving: part('summary-serving'),
    reason: part('summary-reason'),
    next: part('summary-next'),
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('one summary per proxy, the same on every screen', () => {
  it.each([
    [
      'en',
      {
        state: 'Failed — still serving',
        serving: 'Live: the server serves this proxy over HTTPS.',
        reason: 'The custom script exited with status 3. Its last output:\nboom',
        next: 'Fix the cause, then deploy again.',
      },
    ],
    [
      'es',
      {
        state: 'Falló — sigue publicado',
        serving: 'Publicado: el servidor sirve este proxy por HTTPS.',
        reason: 'El script personalizado terminó con el código 3. Su última salida:\nboom',
        next: 'Corrige la causa y vuelve a desplegar.',
      },
    ],
  ] as const)('a failed run with its site live (%s): card, details, admin', async (lang, words) => {
    serve(failedLive);
    const card = await renderWithProviders(
      <ProxyCard
        proxy={failedLive}
        certificate={summaryOfCertificate(certificate())}
        onEdit={() => {}}
      />,
      { lang },
    );
    const onCard = said(screen.getByTestId('proxy-summary'));
    expect(onCard).toMatchObject({ ...words, tone: 'danger' });
    // Five years away is green, never red beside the failure; no "SSL enabled" of its own.
    const expiry = screen.getByTestId('certificate-badge');
    expect(expiry.getAttribute('data-state')).toBe('fine');
    expect(expiry.textContent).toContain(lang === 'en' ? 'Expires in 1825 days' : '1825 días');
    expect(screen.queryByTestId('proxy-ssl')).toBeNull();
    card.unmount();

    const details = await renderWithProviders(<ProxyDetailsPage id={id} />, { lang });
    const top = await screen.findByTestId('proxy-summary');
    await within(top).findByTestId('certificate-badge');
    expect(said(top)).toEqual(onCard);
    // The summary comes first: before the actions and every card.
    const panel = screen.getByTestId('management-panel');
    expect(top.compareDocumentPosition(panel) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    details.unmount();

    await renderWithProviders(<AdminSection user={{ role: 'admin' }} renderEdit={() => null} />, {
      lang,
    });
    // Phone cards carry the whole summary; the table row its badges and the reason.
    const adminCard = await screen.findByTestId('admin-proxy-card');
    const onAdmin = said(within(adminCard).getByTestId('proxy-summary'));
    expect(onAdmin).toEqual(onCard);
    const row = said(within(screen.getByTestId('admin-proxy-row')).getByTestId('proxy-summary'));
    expect(row).toMatchObject({ state: words.state, reason: words.reason, tone: 'danger' });
  });

  it.each([
    [
      'en',
      'Pending redeploy — still serving',
      'It keeps serving until it is redeployed, or deleted with its site removed from the server.',
    ],
    [
      'es',
      'Pendiente de volver a desplegar — sigue publicado',
      'Sigue publicado hasta que se vuelva a desplegar, o se elimine quitando su sitio del servidor.',
    ],
  ] as const)(
    'a reset site that still serves is never just "pending" (%s)',
    async (lang, state, next) => {
      serve(resetLive);
      const card = await renderWithProviders(<ProxyCard proxy={resetLive} onEdit={() => {}} />, {
        lang,
      });
      expect(said(screen.getByTestId('proxy-summary'))).toMatchObject({
        state,
        next,
        tone: 'warning',
      });
      card.unmount();
      await renderWithProviders(<ProxyDetailsPage id={id} />, { lang });
      expect(said(await screen.findByTestId('proxy-summary'))).toMatchObject({ state, next });
    },
  );
});
