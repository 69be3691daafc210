import type { TAdminProxyRow } from '@portico/shared/admin/api';
import type { TCertificateStatus } from '@portico/shared/certificates/schemas';
import type { TSiteScan } from '@portico/shared/ssh-servers/site-scan';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AdminSection } from '@/features/admin/components/admin-section';
import { DeleteProxyDialog } from '@/features/proxies/components/delete-proxy-dialog';
import { ProxyCard } from '@/features/proxies/components/proxy-card';
import { ProxyDetailsPage } from '@/features/proxies/components/proxy-details-page';
import { SitesCard } from '@/features/servers/components/sites-card';
import { aProxy, SERVER_SITE } from '@/test/proxy';
import { pageOf } from '@/test/proxy-page';
import { renderWithProviders } from '@/test/render';

// A site adopted as it is (issue 40, docs/PRODUCT.md#sites-on-this-server) on every screen that
// shows it: the summary says what it is, Portico's writes are not offered, the delete keeps
// the site, and everything scanned from the server renders as text.

const id = '00000000-0000-4000-8000-000000000040';
const FILE = '/etc/nginx/sites-enabled/shop';

const adopted = aProxy({
  id,
  domain: 'shop.example.com',
  status: 'completed',
  sslConfigured: true,
  serverSites: [],
  sshAuth: 'server',
  hasSshPassword: false,
  adoption: {
    file: FILE,
    sha256: 'ab'.repeat(32),
    changedAt: null,
    missingAt: null,
    fileText: 'server {}',
  },
});

const certificate: TCertificateStatus = {
  configurationId: id,
  domain: 'shop.example.com',
  state: 'warning',
  daysLeft: 12,
  served: {
    fingerprint: 'AB:CD',
    notBefore: '2026-09-01T00:00:00.000Z',
    notAfter: '2026-12-18T00:00:00.000Z',
    issuer: 'Pebble Intermediate CA',
    names: ['shop.example.com'],
  },
  check: {
    checkedAt: '2026-12-06T10:00:00.000Z',
    ok: true,
    problem: null,
    httpRedirects: true,
    httpProblem: null,
  },
  checkPending: false,
  onServer: null,
  nginxNotReloaded: false,
  renewal: null,
  recentlyIssued: { count: 0, days: 7, max: 5 },
  lastAction: null,
  held: { renew: null, renew_test: null },
  uploaded: null,
};

const adminRow: TAdminProxyRow = {
  id,
  domain: adopted.domain,
  targetServer: adopted.targetServer,
  status: 'completed',
  serving: 'https',
  adoptedFile: FILE,
  lastFailure: null,
  createdAt: adopted.createdAt,
  userId: 'u2',
  username: 'bob',
  email: 'bob@example.com',
};

function serve(proxy = adopted) {
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = String(input);
    if (url.startsWith('/api/deployment-logs/')) return Response.json([]);
    if (url === `/api/proxy-configurations/${id}/certificate`) return Response.json(certificate);
    if (url === `/api/proxy-configurations/${id}`) return Response.json(proxy);
    if (url.startsWith('/api/admin/all-proxies?')) return Response.json(pageOf([adminRow]));
    if (url === '/api/admin/stats/users') return Response.json({ totalUsers: 2 });
    if (url === '/api/admin/stats/proxies-by-user') return Response.json([]);
    throw new Error(`unexpected ${url}`);
  });
}

afterEach(() => {
  vi.restoreAllMocks();
});

const WORDS = {
  en: {
    state: 'Adopted',
    serving:
      'Live over HTTPS from a site Portico did not write (adopted as it is): Portico watches its certificate and never changes its file.',
    next: 'renew it on the server',
    refused: 'Portico adopted this site as it is and does not change its hand-written file',
    certificateActions: 'Test renewal and Renew now do not apply',
    delete: `deleting it removes only Portico's record. The site and its file (${FILE}) stay on the server`,
  },
  es: {
    state: 'Adoptado',
    serving:
      'Publicado por HTTPS desde un sitio que Portico no escribió (adoptado tal como está): Portico vigila su certificado y nunca cambia su archivo.',
    next: 'renuévalo en el servidor',
    refused: 'Portico adoptó este sitio tal como está y no cambia su archivo escrito a mano',
    certificateActions: 'Probar renovación y Renovar ahora no se aplican',
    delete: `borrarlo solo elimina el registro de Portico. El sitio y su archivo (${FILE}) se quedan en el servidor`,
  },
} as const;

describe('an adopted proxy says what it is', () => {
  it.each(['en', 'es'] as const)(
    'card, details and admin: adopted, live, its certificate (%s)',
    async (lang) => {
      const words = WORDS[lang];
      serve();
      const card = await renderWithProviders(
        <ProxyCard
          proxy={adopted}
          certificate={{
            state: 'warning',
            daysLeft: 12,
            notAfter: '2026-12-18T00:00:00.000Z',
            checkFailed: false,
            nginxNotReloaded: false,
          }}
          onEdit={() => {}}
        />,
        { lang },
      );
      const onCard = screen.getByTestId('proxy-summary');
      expect(onCard.getAttribute('data-state')).toBe('adopted');
      expect(within(onCard).getByTestId('summary-state').textContent).toBe(words.state);
      expect(within(onCard).getByTestId('summary-serving').textContent).toBe(words.serving);
      expect(within(onCard).getByTestId('summary-next').textContent).toContain(words.next);
      expect(within(onCard).getByTestId('certificate-badge').getAttribute('data-state')).toBe(
        'warning',
      );
      card.unmount();

      const details = await renderWithProviders(<ProxyDetailsPage id={id} />, { lang });
      const top = await screen.findByTestId('proxy-summary');
      await within(top).findByTestId('certificate-badge');
      expect(within(top).getByTestId('summary-state').textContent).toBe(words.state);
      expect(within(top).getByTestId('summary-serving').textContent).toBe(words.serving);
      // The certificate card reads the served certificate (the site is live), not "deploy it first".
      await screen.findByTestId('certificate-issuer');
      expect(screen.queryByTestId('certificate-not-live')).toBeNull();
      details.unmount();

      await renderWithProviders(<AdminSection user={{ role: 'admin' }} renderEdit={() => null} />, {
        lang,
      });
      const adminCard = await screen.findByTestId('admin-proxy-card');
      const onAdmin = within(adminCard).getByTestId('proxy-summary');
      expect(within(onAdmin).getByTestId('summary-state').textContent).toBe(words.state);
      expect(within(onAdmin).getByTestId('summary-serving').textContent).toBe(words.serving);
    },
  );
});

/** The button says why it cannot act, reachable by keyboard: focusable, its reason on focus. */
async function saysWhyOnFocus(button: HTMLElement, reason: string) {
  expect(button.getAttribute('aria-disabled')).toBe('true');
  expect(button.hasAttribute('disabled')).toBe(false);
  button.focus();
  expect(document.activeElement).toBe(button);
  fireEvent.click(button);
  const tip = await screen.findAllByTestId('unavailable-reason');
  expect(tip[0]?.textContent).toContain(reason);
  expect(tip[0]?.textContent).toContain(FILE);
  fireEvent.keyDown(button, { key: 'Escape' });
}

describe('what Portico refuses on an adopted site is not offered as if it worked', () => {
  it.each(['en', 'es'] as const)(
    'details page: modify, reset, plan, redeploy, renewals (%s)',
    async (lang) => {
      const words = WORDS[lang];
      serve();
      const fetchSpy = vi.mocked(globalThis.fetch);
      await renderWithProviders(<ProxyDetailsPage id={id} />, { lang });
      const panel = await screen.findByTestId('management-panel');
      for (const testId of ['action-modify', 'action-reset', 'action-plan', 'action-redeploy']) {
        await saysWhyOnFocus(within(panel).getByTestId(testId), words.refused);
      }
      // No link to the wizard, no password notice for a site never deployed.
      expect(within(panel).queryByRole('link')).toBeNull();
      expect(within(panel).queryByTestId('password-needed')).toBeNull();
      // Delete stays: it forgets Portico's record.
      expect(within(panel).getByTestId('action-delete').getAttribute('aria-disabled')).toBeNull();

      await screen.findByTestId('certificate-issuer');
      expect(screen.getByTestId('action-test-renewal')).toHaveProperty('disabled', true);
      expect(screen.getByTestId('action-renew-now')).toHaveProperty('disabled', true);
      expect(screen.getByTestId('action-check-now')).toHaveProperty('disabled', false);
      expect(screen.getByTestId('certificate-actions-hint').textContent).toContain(
        words.certificateActions,
      );
      // Nothing was asked of the server beyond reads.
      for (const [, init] of fetchSpy.mock.calls) {
        expect((init as RequestInit | undefined)?.method ?? 'GET').toBe('GET');
      }
    },
  );

  it('an adopted HTTP site: no certificate runs, and never "deploy it first"', async () => {
    serve({ ...adopted, sslConfigured: false });
    await renderWithProviders(<ProxyDetailsPage id={id} />, { lang: 'en' });
    const hint = await screen.findByTestId('certificate-actions-hint');
    expect(hint.textContent).toBe(
      'Portico adopted this site as it is and it serves no certificate: Portico does not add one to a file it did not write.',
    );
    expect(screen.getByTestId('action-renew-now')).toHaveProperty('disabled', true);
    expect(screen.getByTestId('action-check-now')).toHaveProperty('disabled', true);
  });

  it.each(['en', 'es'] as const)('home card and admin list: Edit says why (%s)', async (lang) => {
    const words = WORDS[lang];
    serve();
    const onEdit = vi.fn();
    const card = await renderWithProviders(
      <ProxyCard proxy={{ ...adopted, changedSinceDeploy: true }} onEdit={onEdit} />,
      { lang },
    );
    await saysWhyOnFocus(screen.getByTestId('proxy-edit'), words.refused);
    await saysWhyOnFocus(screen.getByTestId('proxy-redeploy'), words.refused);
    expect(onEdit).not.toHaveBeenCalled();
    card.unmount();

    await renderWithProviders(<AdminSection user={{ role: 'admin' }} renderEdit={() => null} />, {
      lang,
    });
    const adminCard = await screen.findByTestId('admin-proxy-card');
    await saysWhyOnFocus(within(adminCard).getByTestId('admin-proxy-edit'), words.refused);
  });
});

describe('deleting an adopted proxy keeps its site', () => {
  it.each(['en', 'es'] as const)(
    'says only the record goes, offers no removal (%s)',
    async (lang) => {
      const onDelete = vi.fn(async () => undefined);
      await renderWithProviders(
        <DeleteProxyDialog
          domain="shop.example.com"
          // Even with a recorded site, an adopted proxy's delete removes nothing from the server.
          sites={[SERVER_SITE]}
          adoptedFile={FILE}
          open
          onOpenChange={() => {}}
          onDelete={onDelete}
          onDeleted={() => {}}
        />,
        { lang },
      );
      expect(screen.getByTestId('delete-adopted').textContent).toContain(WORDS[lang].delete);
      expect(screen.queryByRole('checkbox')).toBeNull();
      expect(screen.queryByTestId('delete-nothing-on-server')).toBeNull();
      fireEvent.click(screen.getByTestId('delete-confirm'));
      await waitFor(() =>
        expect(onDelete).toHaveBeenCalledWith({
          removeFromServer: false,
          removeCertificate: false,
        }),
      );
    },
  );
});

const HOSTILE = '<img src=x onerror="window.__pwned=1"></script><script>window.__pwned=2</script>';

/** The page holds the payload as text and no element it would have made. */
function renderedAsText(root: HTMLElement) {
  expect(root.textContent).toContain(HOSTILE);
  expect(root.querySelector('img')).toBeNull();
  expect(root.querySelector('script')).toBeNull();
  expect((window as { __pwned?: number }).__pwned).toBeUndefined();
}

describe('what was scanned from a server renders as text', () => {
  it('the Adopted card: the file name and its text', async () => {
    serve({
      ...adopted,
      adoption: {
        file: `${FILE}${HOSTILE}`,
        sha256: 'ab',
        changedAt: null,
        missingAt: null,
        fileText: HOSTILE,
      },
    });
    await renderWithProviders(<ProxyDetailsPage id={id} />, { lang: 'en' });
    const card = await screen.findByTestId('proxy-adopted');
    renderedAsText(within(card).getByTestId('proxy-adopted-file'));
    expect(card.textContent).toContain(`${FILE}${HOSTILE}`);
  });

  it('the sites card: server name, file, target and nginx output', async () => {
    const site = {
      serverName: HOSTILE,
      class: 'adoptable',
      reason: 'proxy',
      file: HOSTILE,
      files: [HOSTILE],
      fileSha256: null,
      ports: [80],
      tls: false,
      certificatePath: null,
      certificate: null,
      certificateExpiresAt: null,
      target: HOSTILE,
      proxyPass: [HOSTILE],
      root: null,
      redirect: null,
      proxyId: null,
      changedSinceAdoption: false,
    } as unknown as TSiteScan['sites'][number];
    const scan: TSiteScan = {
      scannedAt: '2026-12-06T10:00:00.000Z',
      nginxTest: { ok: false, output: HOSTILE },
      sites: [site],
      certificates: [],
      skippedNames: 0,
      truncated: false,
    };
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      if (String(input) === '/api/csrf-token') return Response.json({ token: 't' });
      if (String(input) === '/api/ssh-servers/s1/scan') return Response.json(scan);
      throw new Error(`unexpected ${String(input)}`);
    });
    await renderWithProviders(<SitesCard serverId="s1" />, { lang: 'en' });
    fireEvent.click(screen.getByTestId('sites-scan'));
    const row = await screen.findByTestId('site-row');
    renderedAsText(row);
    renderedAsText(screen.getByTestId('sites-nginx-broken'));
  });
});
