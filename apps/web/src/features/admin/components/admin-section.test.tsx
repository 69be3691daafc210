import type { TAdminProxyRow } from '@portico/shared/admin/api';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { never, stubFetch } from '@/test/fetch';
import { pageOf } from '@/test/proxy-page';
import { renderWithProviders } from '@/test/render';
import { AdminSection } from './admin-section';

afterEach(() => vi.unstubAllGlobals());

const row: TAdminProxyRow = {
  id: '00000000-0000-4000-8000-000000000001',
  domain: 'shop.example.com',
  targetServer: 'http://10.0.0.5:8080',
  status: 'deployed',
  serving: 'https',
  adoptedFile: null,
  lastFailure: null,
  createdAt: new Date(Date.now() - 2 * 60 * 60 * 1000).toISOString(),
  userId: 'u2',
  username: 'bob',
  email: 'bob@example.com',
};

const statsRoutes = {
  'GET /api/admin/stats/users': { body: { totalUsers: 7 } },
  'GET /api/admin/stats/proxies-by-user': {
    body: [
      { userId: 'u1', username: 'alice', email: 'alice@example.com', proxyCount: 1 },
      { userId: 'u2', username: 'bob', email: 'bob@example.com', proxyCount: 4 },
    ],
  },
};

describe('admin section on home', () => {
  it('is not rendered for a user and asks the server nothing', async () => {
    const { fetchMock } = stubFetch(statsRoutes);
    const { container } = await renderWithProviders(
      <AdminSection user={{ role: 'user' }} renderEdit={() => null} />,
    );
    expect(container.textContent).toBe('');
    expect(screen.queryByTestId('admin-section')).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('admin (es): title, totals, per-user counts sorted with singular and plural', async () => {
    stubFetch({ ...statsRoutes, 'GET /api/admin/all-proxies': { body: pageOf([row]) } });
    await renderWithProviders(<AdminSection user={{ role: 'admin' }} renderEdit={() => null} />);
    expect(screen.getByRole('heading', { name: 'Panel de administración' })).toBeTruthy();
    expect((await screen.findByTestId('admin-total-users-value')).textContent).toBe('7');
    const counts = await screen.findAllByTestId('admin-user-count');
    expect(counts.map((c) => c.textContent)).toEqual([
      'bob bob@example.com4 proxies',
      'alice alice@example.com1 proxy',
    ]);
    expect(screen.getByText('Todos los proxies')).toBeTruthy();
  });

  it('admin (en): the table row shows owner, relative time, badge colour and opens admin edit', async () => {
    const full = { ...row, serverIp: '203.0.113.10', sshUser: 'deploy', sshPort: 22 };
    stubFetch({
      ...statsRoutes,
      'GET /api/admin/all-proxies': { body: pageOf([row]) },
      [`GET /api/proxy-configurations/${row.id}`]: { body: full },
    });
    const renderEdit = vi.fn(() => <div data-testid="fake-edit" />);
    await renderWithProviders(<AdminSection user={{ role: 'admin' }} renderEdit={renderEdit} />, {
      lang: 'en',
    });
    const tableRow = await screen.findByTestId('admin-proxy-row');
    expect(tableRow.textContent).toContain('bob@example.com');
    expect(tableRow.textContent).toContain('about 2 hours ago');
    const badge = tableRow.querySelector('[data-testid="summary-state"]');
    expect(badge?.getAttribute('data-tone')).toBe('fine');
    expect(badge?.textContent).toBe('Active');
    // The domain opens the proxy.
    expect(tableRow.querySelector('[data-testid="admin-domain-link"]')?.getAttribute('href')).toBe(
      `/proxy-details/${row.id}`,
    );
    expect(screen.getByTestId('admin-proxy-total').textContent).toBe('(1 in total)');
    // Phone cards carry the same row.
    expect(screen.getByTestId('admin-proxy-card').textContent).toContain('shop.example.com');
    fireEvent.click(
      screen.getAllByRole('button', { name: 'Edit shop.example.com' })[0] as HTMLElement,
    );
    await screen.findByTestId('fake-edit');
    expect(renderEdit).toHaveBeenLastCalledWith(
      expect.objectContaining({
        proxy: full,
        owner: { username: 'bob', email: 'bob@example.com' },
        open: true,
      }),
    );
  });

  it('a deployment in progress has the colour and spinner of home and details, not red', async () => {
    stubFetch({
      ...statsRoutes,
      'GET /api/admin/all-proxies': { body: pageOf([{ ...row, status: 'deploying' }]) },
    });
    await renderWithProviders(<AdminSection user={{ role: 'admin' }} renderEdit={() => null} />, {
      lang: 'en',
    });
    const tableRow = await screen.findByTestId('admin-proxy-row');
    const badge = tableRow.querySelector('[data-testid="summary-state"]') as HTMLElement;
    expect(badge.textContent).toBe('Deploying');
    expect(badge.getAttribute('data-tone')).toBe('running');
    expect(badge.querySelector('svg.animate-spin')).not.toBeNull();
    // The server refuses an edit while the deployment runs: the button says so instead.
    for (const edit of screen.getAllByTestId('admin-proxy-edit')) {
      expect(edit.getAttribute('aria-disabled')).toBe('true');
    }
  });

  it("all proxies: a page, searched and walked under its own names in the address, beside the owner's list", async () => {
    window.history.replaceState(null, '', '/?q=mine');
    const { calls } = stubFetch({
      ...statsRoutes,
      'GET /api/admin/all-proxies': { body: pageOf([row], 'next1') },
    });
    await renderWithProviders(<AdminSection user={{ role: 'admin' }} renderEdit={() => null} />, {
      lang: 'en',
    });
    await screen.findByTestId('admin-proxy-row');
    const reads = () =>
      calls
        .filter((c) => c.url.startsWith('/api/admin/all-proxies?'))
        .map((c) => Object.fromEntries(new URLSearchParams(c.url.split('?')[1])));
    // The owner's own search (`q`) is not the admin list's.
    expect(reads()[0]).toEqual({ limit: '25' });
    fireEvent.change(screen.getByTestId('admin-proxy-search'), { target: { value: 'shop' } });
    await waitFor(() => expect(reads().at(-1)).toEqual({ limit: '25', q: 'shop' }));
    expect(window.location.search).toBe('?q=mine&all_q=shop');
    fireEvent.click(screen.getByTestId('page-next'));
    await waitFor(() =>
      expect(reads().at(-1)).toEqual({ limit: '25', q: 'shop', cursor: 'next1' }),
    );
    expect(window.location.search).toBe('?q=mine&all_q=shop&all_page=next1');
    window.history.replaceState(null, '', '/');
  });

  it('five skeleton rows while loading', async () => {
    vi.stubGlobal('fetch', vi.fn(never));
    await renderWithProviders(<AdminSection user={{ role: 'admin' }} renderEdit={() => null} />);
    expect(screen.getAllByTestId('admin-proxy-skeleton')).toHaveLength(5);
  });

  it('empty texts (en)', async () => {
    stubFetch({
      'GET /api/admin/stats/users': { body: { totalUsers: 1 } },
      'GET /api/admin/stats/proxies-by-user': { body: [] },
      'GET /api/admin/all-proxies': { body: pageOf([]) },
    });
    await renderWithProviders(<AdminSection user={{ role: 'admin' }} renderEdit={() => null} />, {
      lang: 'en',
    });
    expect(await screen.findByText('No users with proxy configurations found')).toBeTruthy();
    expect(await screen.findByText('No proxy configurations found')).toBeTruthy();
  });

  it('error texts of each card (en)', async () => {
    stubFetch({});
    await renderWithProviders(<AdminSection user={{ role: 'admin' }} renderEdit={() => null} />, {
      lang: 'en',
    });
    await waitFor(() => {
      expect(screen.getByText('Failed to load user statistics')).toBeTruthy();
      expect(screen.getByText('Failed to load proxy statistics')).toBeTruthy();
      expect(screen.getByText('Failed to load proxy configurations')).toBeTruthy();
    });
  });
});
