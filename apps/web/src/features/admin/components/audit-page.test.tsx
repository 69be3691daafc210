import type { TAuditEntry } from '@portico/shared/admin/api';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '@/test/fetch';
import { renderWithProviders } from '@/test/render';
import { AuditPage } from './audit-page';

afterEach(() => {
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

const BOB = '22222222-2222-4222-8222-222222222222';
const SHOP = '33333333-3333-4333-8333-333333333333';

const entry = (id: number, action: string, targetName?: string | null): TAuditEntry => ({
  id,
  actorId: 'a1',
  actorUsername: 'root-admin',
  action,
  targetType: 'proxy_configuration',
  targetId: SHOP,
  targetOwnerId: BOB,
  ...(targetName === undefined ? {} : { targetName }),
  changes: [],
  createdAt: new Date(2026, 10, 22, 10, 0, id).toISOString(),
});

const userRow = {
  id: BOB,
  username: 'bob',
  email: 'b@example.com',
  role: 'user',
  proxyCount: 1,
  createdAt: '',
};
const proxyRow = {
  id: SHOP,
  domain: 'shop.example.com',
  targetServer: null,
  status: 'pending',
  createdAt: '',
  userId: BOB,
  username: 'bob',
  email: 'b@example.com',
};
const pageOf = (items: unknown[]) => ({ body: { items, nextCursor: null, total: items.length } });

function stubLists() {
  const { calls } = stubFetch({
    'GET /api/admin/users': pageOf([userRow]),
    'GET /api/admin/all-proxies': pageOf([proxyRow]),
    'GET /api/admin/audit-log': () => {
      const url = String(calls.at(-1)?.url);
      return url.includes('before=2')
        ? { body: { entries: [entry(1, 'proxy.deploy', null)], nextCursor: null } }
        : {
            body: {
              entries: [entry(3, 'proxy.admin_edit', 'shop.example.com'), entry(2, 'proxy.reset')],
              nextCursor: 2,
            },
          };
    },
  });
  return calls;
}

const auditCalls = (calls: { url: string }[]) =>
  calls.filter((c) => c.url.startsWith('/api/admin/audit-log')).map((c) => c.url);

describe('audit page', () => {
  it('names targets from the entries, loads more by cursor, and never loads a whole list', async () => {
    const calls = stubLists();
    await renderWithProviders(<AuditPage />, { lang: 'en' });
    await waitFor(() => expect(screen.getAllByTestId('audit-entry')).toHaveLength(2));
    fireEvent.click(screen.getByTestId('audit-load-more'));
    await waitFor(() => expect(screen.getAllByTestId('audit-entry')).toHaveLength(3));
    expect(screen.getAllByTestId('audit-action').map((a) => a.textContent)).toEqual([
      'edited as admin',
      'reset',
      'deployed',
    ]);
    // The server's name where it sent one, else the id (an older server, a target gone).
    expect(screen.getAllByTestId('audit-target').map((a) => a.textContent)).toEqual([
      'proxy shop.example.com',
      `proxy ${SHOP}`,
      `proxy ${SHOP}`,
    ]);
    expect(screen.queryByTestId('audit-load-more')).toBeNull();
    // Closed pickers ask nothing; no admin list is read whole.
    expect(calls.some((c) => !c.url.startsWith('/api/admin/audit-log'))).toBe(false);
  });

  it('searches users on the server as the admin types, picks by keyboard, keeps it in the address', async () => {
    const calls = stubLists();
    await renderWithProviders(<AuditPage />, { lang: 'en' });
    fireEvent.click(await screen.findByRole('button', { name: 'User' }));
    const search = await screen.findByRole('combobox', { name: 'Search users by name or e-mail' });
    fireEvent.change(search, { target: { value: 'bo' } });
    await waitFor(() =>
      expect(calls.some((c) => c.url === '/api/admin/users?limit=8&q=bo')).toBe(true),
    );
    await screen.findByRole('option', { name: 'bob (b@example.com)' });
    expect(screen.getByRole('option', { name: 'All users' }).getAttribute('aria-selected')).toBe(
      'true',
    );
    fireEvent.keyDown(search, { key: 'ArrowDown' });
    expect(search.getAttribute('aria-activedescendant')).toBe('audit-user-option-1');
    fireEvent.keyDown(search, { key: 'Enter' });
    await waitFor(() => expect(window.location.search).toBe(`?user=${BOB}`));
    await waitFor(() =>
      expect(auditCalls(calls).at(-1)).toBe(`/api/admin/audit-log?userId=${BOB}&limit=50`),
    );
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('reads the filters from the address, in Spanish, and clears one', async () => {
    window.history.replaceState(null, '', `/?user=${BOB}&proxy=${SHOP}&page=x`);
    const calls = stubLists();
    await renderWithProviders(<AuditPage />, { lang: 'es' });
    await waitFor(() =>
      expect(auditCalls(calls)[0]).toBe(
        `/api/admin/audit-log?userId=${BOB}&proxyId=${SHOP}&limit=50`,
      ),
    );
    // The chosen proxy is shown by the name its entries carry.
    await waitFor(() =>
      expect(screen.getByTestId('audit-proxy-picker').textContent).toContain('shop.example.com'),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Quitar filtro: Usuario' }));
    await waitFor(() => expect(window.location.search).toBe(`?proxy=${SHOP}&page=x`));

    fireEvent.click(screen.getByTestId('audit-proxy-picker'));
    const search = await screen.findByRole('combobox', { name: 'Buscar proxies por dominio' });
    expect(screen.getByRole('dialog', { name: 'Proxy' }).contains(search)).toBe(true);
    fireEvent.change(search, { target: { value: 'nada' } });
    await waitFor(() =>
      expect(calls.some((c) => c.url === '/api/admin/all-proxies?limit=8&q=nada')).toBe(true),
    );
    fireEvent.click(await screen.findByRole('option', { name: 'Todos los proxies' }));
    await waitFor(() => expect(window.location.search).toBe('?page=x'));
    expect(screen.getByTestId('audit-proxy-picker').textContent).toContain('Todos los proxies');
  });

  it('drops a filter in the address that is no id', async () => {
    window.history.replaceState(null, '', '/?user=1%20or%201=1');
    const calls = stubLists();
    await renderWithProviders(<AuditPage />, { lang: 'en' });
    await waitFor(() => expect(auditCalls(calls)[0]).toBe('/api/admin/audit-log?limit=50'));
    expect(screen.getByTestId('audit-user-picker').textContent).toContain('All users');
  });
});
