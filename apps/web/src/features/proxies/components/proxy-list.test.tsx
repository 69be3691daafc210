import type { TProxyConfiguration } from '@portico/shared/proxy/api';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { aProxy } from '@/test/proxy';
import { pageReads, serveProxyPages as serve, type TSummaryRow } from '@/test/proxy-page';
import { renderWithProviders } from '@/test/render';
import { ProxyList, TABLE_MIN_WIDTH_QUERY } from './proxy-list';

const proxy = (n: number, status: TProxyConfiguration['status']): TProxyConfiguration =>
  aProxy({
    id: `00000000-0000-4000-8000-00000000000${n}`,
    domain: `site${n}.example.com`,
    status,
    sslConfigured: status === 'completed',
    createdAt: '2026-01-05T10:00:00.000Z',
    updatedAt: '2026-01-05T10:00:00.000Z',
  });

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

describe('proxy list', () => {
  it('shows skeletons, then the empty state, which leaves the one call to action to home', async () => {
    serve([[]]);
    await renderWithProviders(<ProxyList />, { lang: 'en' });
    expect(screen.getByTestId('proxy-list-loading')).toBeTruthy();
    const empty = await screen.findByTestId('proxy-list-empty');
    expect(empty.textContent).toContain('No proxies yet');
    expect(empty.querySelector('a, button')).toBeNull();
    // Nothing to sort or to view another way.
    expect(screen.queryByTestId('proxy-sort')).toBeNull();
    expect(screen.queryByTestId('view-table')).toBeNull();
  });

  it.each([
    ['en', 'Your proxies could not be loaded.', 'Too many attempts.'],
    ['es', 'No se pudieron cargar tus proxies.', 'Demasiados intentos.'],
  ] as const)('a load error says why (%s)', async (lang, title, reason) => {
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (url) => {
      if (String(url).startsWith('/api/certificates')) return Response.json([]);
      return Response.json(
        { statusCode: 429, code: 'rate_limited', message: reason },
        { status: 429 },
      );
    });
    await renderWithProviders(<ProxyList />, { lang });
    const error = await screen.findByTestId('proxy-list-error');
    expect(error.textContent).toContain(title);
    expect(screen.getByTestId('proxy-list-error-reason').textContent).toBe(reason);
  });

  it('lists cards and offers the same proxies as a table', async () => {
    serve([[proxy(1, 'completed'), proxy(2, 'pending')]]);
    await renderWithProviders(<ProxyList />, { lang: 'en' });
    expect(await screen.findAllByTestId('proxy-card')).toHaveLength(2);
    fireEvent.click(screen.getByTestId('view-table'));
    const rows = screen.getAllByTestId('proxy-row');
    expect(rows).toHaveLength(2);
    expect(screen.getByTestId('view-table').getAttribute('aria-pressed')).toBe('true');
    const headers = [...document.querySelectorAll('th')].map((th) => th.textContent);
    // Every column is named; the actions, Continue Deploy among them, each say their word.
    expect(headers).toEqual(['Domain', 'Target Server', 'Status', 'Actions']);
    expect(rows[0]?.querySelector('[data-testid="proxy-copy"]')?.textContent).toBe('Copy URL');
    expect(rows[0]?.querySelector('[data-testid="proxy-edit"]')?.textContent).toBe('Edit');
    // Continue Deploy only on the row that is not completed.
    expect(rows[0]?.querySelector('[data-testid="proxy-continue"]')).toBeNull();
    expect(rows[1]?.querySelector('[data-testid="proxy-continue"]')).not.toBeNull();
  });

  it("shows each certificate's expiry in its state's colour and asks the server to sort by expiry", async () => {
    const summary = (n: number, daysLeft: number | null, state: TSummaryRow['state']) => ({
      configurationId: proxy(n, 'completed').id,
      state,
      daysLeft,
      notAfter: null,
      checkFailed: daysLeft === null,
      nginxNotReloaded: false,
    });
    const fetchMock = serve(
      [
        [proxy(1, 'completed'), proxy(2, 'completed'), proxy(3, 'completed'), proxy(4, 'pending')],
        [proxy(2, 'completed'), proxy(1, 'completed'), proxy(3, 'completed'), proxy(4, 'pending')],
      ],
      [summary(1, 40, 'fine'), summary(2, 5, 'danger'), summary(3, null, 'danger')],
    );
    await renderWithProviders(<ProxyList />, { lang: 'en' });
    await waitFor(() => expect(screen.getAllByTestId('certificate-badge')).toHaveLength(3));
    const badges = screen.getAllByTestId('certificate-badge');
    expect(badges.map((b) => b.getAttribute('data-state'))).toEqual(['fine', 'danger', 'danger']);
    expect(badges[0]?.textContent).toContain('Expires in 40 days');
    expect(badges[1]?.textContent).toContain('Expires in 5 days');
    // Only the page's proxies that serve HTTPS are asked about.
    const certificateReads = fetchMock.mock.calls
      .map(([url]) => decodeURIComponent(String(url)))
      .filter((url) => url.startsWith('/api/certificates'));
    expect(certificateReads[0]).toBe(
      `/api/certificates?ids=${[1, 2, 3].map((n) => proxy(n, 'completed').id).join(',')}`,
    );
    const domains = () =>
      screen.getAllByTestId('proxy-card').map((card) => card.textContent?.match(/site\d/)?.[0]);
    expect(domains()).toEqual(['site1', 'site2', 'site3', 'site4']);
    fireEvent.change(screen.getByTestId('proxy-sort'), { target: { value: 'expiry' } });
    // The server's order, as it sent it: the list does not sort a page again itself.
    await waitFor(() => expect(domains()).toEqual(['site2', 'site1', 'site3', 'site4']));
    expect(pageReads(fetchMock).at(-1)).toEqual({ limit: '24', sort: 'expiry' });
    expect(window.location.search).toBe('?sort=expiry');
  });

  it('reads the list again when the window regains focus', async () => {
    const fetchMock = serve([[proxy(1, 'pending')], [proxy(1, 'completed')]]);
    await renderWithProviders(<ProxyList />, { lang: 'en' });
    expect((await screen.findByTestId('summary-state')).textContent).toBe('Pending');
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    await waitFor(() => expect(screen.getByTestId('summary-state').textContent).toBe('Active'));
    expect(fetchMock.mock.calls.length).toBeGreaterThanOrEqual(2);
  });

  it('reads the list again when the tab becomes visible again', async () => {
    serve([[proxy(1, 'pending')], [proxy(1, 'failed')]]);
    await renderWithProviders(<ProxyList />, { lang: 'en' });
    expect((await screen.findByTestId('summary-state')).textContent).toBe('Pending');
    act(() => {
      document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
    });
    await waitFor(() =>
      expect(screen.getByTestId('summary-state').textContent).toBe('Failed — not live'),
    );
  });

  it('shows cards, with every action, at phone width even when the table was chosen', async () => {
    localStorage.setItem('portico.proxyView', 'table');
    // A phone: the table's query does not match.
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query !== TABLE_MIN_WIDTH_QUERY,
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
    }));
    serve([[proxy(1, 'completed'), proxy(2, 'pending')]]);
    await renderWithProviders(<ProxyList />, { lang: 'es' });
    const cards = await screen.findAllByTestId('proxy-card');
    expect(cards).toHaveLength(2);
    expect(screen.queryByTestId('proxy-table')).toBeNull();
    // The choice does nothing here, so it is not offered.
    expect(screen.queryByTestId('view-table')).toBeNull();
    expect(cards[0]?.querySelector('[data-testid="proxy-open"]')).not.toBeNull();
    expect(cards[0]?.querySelector('[data-testid="proxy-copy"]')).not.toBeNull();
    expect(cards[1]?.querySelector('[data-testid="proxy-edit"]')).not.toBeNull();
    expect(cards[1]?.querySelector('[data-testid="proxy-continue"]')).not.toBeNull();
  });
});
