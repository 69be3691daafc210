import type { TPublicUser } from '@portico/shared/auth/schemas';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { HomePage } from './home-page';

const user: TPublicUser = {
  id: 'u1',
  username: 'jane_doe',
  email: 'jane@example.com',
  role: 'user',
  firstName: 'Jane',
  lastName: null,
  profileImageUrl: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  twoFactorEnabled: false,
  twoFactorSetupRequired: false,
};

describe('home page (spec §2)', () => {
  it('welcomes by first name and links create and quick actions to the wizard', async () => {
    await renderWithProviders(<HomePage user={user} proxies={<p>the list</p>} />, { lang: 'en' });
    expect(screen.getByTestId('welcome-heading').textContent).toBe('Welcome, Jane');
    expect(screen.getByTestId('create-proxy').getAttribute('href')).toBe('/proxy-wizard');
    expect(screen.getByTestId('quick-create').getAttribute('href')).toBe('/proxy-wizard');
    expect(screen.getByTestId('quick-view-all').getAttribute('href')).toBe('#proxies');
    expect(screen.getByText('the list')).toBeTruthy();
  });

  it('falls back to the username, in Spanish by default', async () => {
    await renderWithProviders(<HomePage user={{ ...user, firstName: '  ' }} />);
    expect(screen.getByTestId('welcome-heading').textContent).toBe('Hola, jane_doe');
    expect(screen.getByRole('heading', { name: 'Acciones rápidas' })).toBeTruthy();
  });
});
