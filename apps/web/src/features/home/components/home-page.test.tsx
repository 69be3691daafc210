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

  it.each([
    ['en', 'Create proxy'],
    ['es', 'Crear proxy'],
  ] as const)('with no proxy yet, one call to create one (%s)', async (lang, create) => {
    const { container } = await renderWithProviders(<HomePage user={user} empty />, { lang });
    const links = [...container.querySelectorAll('a')];
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['/proxy-wizard']);
    expect(links[0]?.textContent).toBe(create);
    expect(screen.queryByTestId('quick-create')).toBeNull();
  });
});
