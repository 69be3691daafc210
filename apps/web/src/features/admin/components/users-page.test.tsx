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

describe('users page', () => {
  it('lists role and proxy count; demoting the last admin shows the 409 message', async () => {
    const { calls } = stubFetch({
      'GET /api/admin/users': { body: [admin] },
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
        body: [{ ...admin, id: 'u2', username: 'bob', role: 'user', proxyCount: 3 }],
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
});
