import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '@/test/fetch';
import { renderWithProviders } from '@/test/render';
import { CertificatesPage } from './certificates-page';

afterEach(() => vi.unstubAllGlobals());

const rows = [
  {
    configurationId: 'p1',
    domain: 'shop.example.com',
    userId: 'u1',
    username: 'ana',
    email: 'ana@example.com',
    state: 'danger',
    daysLeft: 3,
    notAfter: '2026-12-01T00:00:00.000Z',
    checkedAt: '2026-11-24T10:00:00.000Z',
    reasons: ['danger', 'noRenewal'],
  },
  {
    configurationId: 'p2',
    domain: 'blog.example.com',
    userId: 'u2',
    username: 'bob',
    email: 'bob@example.com',
    state: 'warning',
    daysLeft: 20,
    notAfter: '2026-12-14T00:00:00.000Z',
    checkedAt: null,
    reasons: ['warning', 'nginxNotReloaded'],
  },
];

describe('certificates needing attention (admin)', () => {
  it.each([
    [
      'es',
      'Caduca en 3 días',
      ['Le queda menos de un sexto de su vida, o ha caducado', 'Nada lo renueva en el servidor'],
      'nunca',
    ],
    [
      'en',
      'Expires in 3 days',
      ['Less than a sixth of its lifetime left, or expired', 'Nothing renews it on the server'],
      'never',
    ],
  ] as const)(
    '%s: each certificate with its owner, expiry badge, reasons and last check, in the order the server gave',
    async (lang, badge, reasons, never) => {
      stubFetch({
        'GET /api/admin/certificates': {
          body: { items: rows, nextCursor: null, total: rows.length },
        },
      });
      await renderWithProviders(<CertificatesPage />, { lang });
      const table = await screen.findByTestId('attention-table');
      const [first, second] = within(table).getAllByTestId('attention-row');
      expect(first?.getAttribute('data-proxy-id')).toBe('p1');
      expect(first?.textContent).toContain('shop.example.com');
      expect(first?.textContent).toContain('ana@example.com');
      const firstBadge = within(first as HTMLElement).getByTestId('certificate-badge');
      expect(firstBadge?.getAttribute('data-state')).toBe('danger');
      expect(firstBadge.textContent).toContain(badge);
      const listed = within(first as HTMLElement)
        .getByTestId('attention-reasons')
        .querySelectorAll('li');
      expect([...listed].map((li) => li.textContent)).toEqual(reasons);
      expect(second?.getAttribute('data-proxy-id')).toBe('p2');
      expect(second?.textContent).toContain(never);
      expect(
        within(second as HTMLElement)
          .getByTestId('certificate-badge')
          ?.getAttribute('data-state'),
      ).toBe('warning');
    },
  );

  it('says when every certificate is fine, and when the list cannot be loaded', async () => {
    stubFetch({
      'GET /api/admin/certificates': { body: { items: [], nextCursor: null, total: 0 } },
    });
    const { unmount } = await renderWithProviders(<CertificatesPage />, { lang: 'en' });
    expect(await screen.findByText('Every certificate is fine.')).toBeTruthy();
    unmount();
    stubFetch({ 'GET /api/admin/certificates': { status: 500, body: { message: 'x' } } });
    await renderWithProviders(<CertificatesPage />, { lang: 'es' });
    expect(await screen.findByText(/No se pudieron cargar los certificados/)).toBeTruthy();
  });

  it('searches on the server and walks the pages, both kept in the address', async () => {
    const { calls } = stubFetch({
      'GET /api/admin/certificates': { body: { items: rows, nextCursor: 'c1', total: 30 } },
    });
    await renderWithProviders(<CertificatesPage />, { lang: 'en' });
    await screen.findByTestId('attention-table');
    const reads = () =>
      calls.map((c) => Object.fromEntries(new URLSearchParams(c.url.split('?')[1] ?? '')));
    expect(reads()[0]).toEqual({ limit: '25' });
    fireEvent.change(screen.getByLabelText('Search certificates'), { target: { value: 'bob' } });
    await waitFor(() => expect(reads().at(-1)).toEqual({ limit: '25', q: 'bob' }));
    fireEvent.click(screen.getByTestId('page-next'));
    await waitFor(() => expect(reads().at(-1)).toEqual({ limit: '25', q: 'bob', cursor: 'c1' }));
    expect(window.location.search).toBe('?q=bob&page=c1');
    window.history.replaceState(null, '', '/');
  });
});
