import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { TEST_USER } from '@/test/users';
import { HomePage } from './home-page';

const user = { ...TEST_USER, firstName: 'Jane' };

describe('home page', () => {
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
