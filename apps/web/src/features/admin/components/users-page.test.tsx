import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '@/test/fetch';
import { renderWithProviders } from '@/test/render';
import { UsersPage } from './users-page';

afterEach(() => vi.unstubAllGlobals());

const admin = {
  id: 'a1',
  username: 'root-admin',
  email: 'root@example.com',
  role: 'admin',
  proxyCount: 1,
  createdAt: '2026-01-01T00:00:00.000Z',
};

/** The users list's page as the server answers it. */
function usersPage(items: (typeof admin)[]) {
  const count = (role: string) => items.filter((u) => u.role === role).length;
  return {
    items,
    nextCursor: null,
    total: items.length,
    counts: { role: { admin: count('admin'), user: count('user') } },
  };
}

describe('users page', () => {
  it('searches on the server and walks its pages, both kept in the address', async () => {
    const { calls } = stubFetch({
      'GET /api/admin/users': { body: { ...usersPage([admin]), nextCursor: 'u-next' } },
    });
    await renderWithProviders(<UsersPage />, { lang: 'en' });
    await screen.findByTestId('admin-user');
    const reads = () =>
      calls.map((c) => Object.fromEntries(new URLSearchParams(c.url.split('?')[1] ?? '')));
    expect(reads()[0]).toEqual({ limit: '25' });
    fireEvent.change(screen.getByLabelText('Search users'), { target: { value: 'root' } });
    await vi.waitFor(() => expect(reads().at(-1)).toEqual({ limit: '25', q: 'root' }));
    fireEvent.click(screen.getByTestId('page-next'));
    await vi.waitFor(() =>
      expect(reads().at(-1)).toEqual({ limit: '25', q: 'root', cursor: 'u-next' }),
    );
    expect(window.location.search).toBe('?q=root&page=u-next');
    window.history.replaceState(null, '', '/');
  });

  it('lists role and proxy count; demoting the last admin shows the 409 message', async () => {
    const { calls } = stubFetch({
      'GET /api/admin/users': { body: usersPage([admin]) },
      'PATCH /api/admin/users/a1/role': {
        status: 409,
        body: {
          statusCode: 409,
          code: 'last_admin',
          message:
            'Portico needs at least one administrator: promote another account before removing this one.',
        },
      },
    });
    await renderWithProviders(<UsersPage currentUser={{ id: 'a1' }} />, { lang: 'en' });
    const item = await screen.findByTestId('admin-user');
    expect(item.textContent).toContain('Admin');
    expect(item.textContent).toContain('1 proxy');
    expect(item.textContent).toContain('(you)');
    fireEvent.click(screen.getByRole('button', { name: 'Remove admin' }));
    expect(await screen.findByText('Remove admin rights?')).toBeTruthy();
    fireEvent.click(screen.getByTestId('admin-role-confirm'));
    // The server's reason, in the caller's language, not a text of the screen's own.
    expect((await screen.findByTestId('admin-role-error')).textContent).toBe(
      'Portico needs at least one administrator: promote another account before removing this one.',
    );
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ role: 'user' });
  });

  it('es: promoting asks first and sends role admin', async () => {
    const { calls } = stubFetch({
      'GET /api/admin/users': {
        body: usersPage([{ ...admin, id: 'u2', username: 'bob', role: 'user', proxyCount: 3 }]),
      },
      'PATCH /api/admin/users/u2/role': { body: { ...admin, id: 'u2', role: 'admin' } },
    });
    await renderWithProviders(<UsersPage />);
    expect((await screen.findByTestId('admin-user')).textContent).toContain('3 proxies');
    fireEvent.click(screen.getByRole('button', { name: 'Hacer administrador' }));
    expect(await screen.findByText('¿Hacer administrador a este usuario?')).toBeTruthy();
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
    fireEvent.click(screen.getByTestId('admin-role-confirm'));
    await vi.waitFor(() =>
      expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ role: 'admin' }),
    );
  });

  const limits = {
    proxies: { limit: 1000, custom: false, used: 2 },
    servers: { limit: 50, custom: false, used: 3 },
    apiTokens: { limit: 5, custom: true, used: 5 },
    webhooks: { limit: 20, custom: false, used: 0 },
  };

  it("shows an account's limits and sets its own, empty fields back to the default", async () => {
    const { calls } = stubFetch({
      'GET /api/admin/users': {
        body: usersPage([{ ...admin, id: 'u2', username: 'bob', role: 'user' }]),
      },
      'GET /api/admin/users/u2/limits': { body: limits },
      'PUT /api/admin/users/u2/limits': {
        body: { ...limits, proxies: { limit: 1500, custom: true, used: 2 } },
      },
    });
    await renderWithProviders(<UsersPage />, { lang: 'en' });
    fireEvent.click(await screen.findByRole('button', { name: 'Limits' }));
    const dialog = await screen.findByTestId('admin-limits-dialog');
    expect(await screen.findByText('Holds 2 of 1000.')).toBeTruthy();
    expect(dialog.textContent).toContain('Holds 5 of 5.');
    expect(dialog.textContent).toContain('Holds 3 of 50.');
    expect((screen.getByTestId('admin-limit-apiTokens') as HTMLInputElement).value).toBe('5');
    expect((screen.getByTestId('admin-limit-proxies') as HTMLInputElement).value).toBe('');

    fireEvent.change(screen.getByTestId('admin-limit-proxies'), { target: { value: '-1' } });
    fireEvent.click(screen.getByTestId('admin-limits-save'));
    expect(
      await screen.findByText(
        'Enter a whole number from 0 to 1000000, or leave it empty for the default',
      ),
    ).toBeTruthy();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);

    fireEvent.change(screen.getByTestId('admin-limit-proxies'), { target: { value: '1500' } });
    fireEvent.change(screen.getByTestId('admin-limit-apiTokens'), { target: { value: '' } });
    fireEvent.click(screen.getByTestId('admin-limits-save'));
    await vi.waitFor(() =>
      expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
        proxies: 1500,
        servers: null,
        apiTokens: null,
        webhooks: null,
      }),
    );
  });

  it("es: the limits dialog in Spanish, the server's refusal shown", async () => {
    stubFetch({
      'GET /api/admin/users': {
        body: usersPage([{ ...admin, id: 'u2', username: 'bob', role: 'user' }]),
      },
      'GET /api/admin/users/u2/limits': { body: limits },
      'PUT /api/admin/users/u2/limits': {
        status: 403,
        body: { statusCode: 403, code: 'forbidden', message: 'No tienes permiso.' },
      },
    });
    await renderWithProviders(<UsersPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Límites' }));
    expect(await screen.findByText('Tiene 2 de 1000.')).toBeTruthy();
    fireEvent.click(screen.getByTestId('admin-limits-save'));
    expect((await screen.findByTestId('admin-limits-error')).textContent).toBe(
      'No tienes permiso.',
    );
  });
});
