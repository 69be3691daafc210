import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { renderWithProviders } from '@/test/render';
import { TEST_USER } from '@/test/users';
import { Header } from './header';

const user = TEST_USER;

function inRouter(ui: React.ReactElement) {
  return <Router hook={memoryLocation({ path: '/' }).hook}>{ui}</Router>;
}

describe('header', () => {
  it('signed out shows only the logo and the language switcher', async () => {
    await renderWithProviders(inRouter(<Header />), { lang: 'en' });
    expect(screen.getByRole('link', { name: 'Portico' })).toBeTruthy();
    expect(screen.getByRole('button', { name: /Language/ })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Log out' })).toBeNull();
  });

  it('signed in shows initials, username, e-mail and a logout button that calls back', async () => {
    let loggedOut = 0;
    await renderWithProviders(inRouter(<Header user={user} onLogout={() => loggedOut++} />), {
      lang: 'en',
    });
    expect(screen.getByText('JD')).toBeTruthy();
    expect(screen.getByTestId('header-username').textContent).toBe('jane_doe');
    expect(screen.getByTestId('header-email').textContent).toBe('jane@example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Log out' }));
    expect(loggedOut).toBe(1);
  });

  it('disables logout while it runs', async () => {
    await renderWithProviders(inRouter(<Header user={user} loggingOut onLogout={() => {}} />));
    const button = screen.getByRole('button', { name: 'Cerrar sesión' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
  });

  it('has an optional back button, "Back" by default or with custom text', async () => {
    const { unmount } = await renderWithProviders(inRouter(<Header back={{ href: '/' }} />), {
      lang: 'en',
    });
    expect(screen.getByTestId('header-back').textContent).toBe('Back');
    expect(screen.getByTestId('header-back').getAttribute('href')).toBe('/');
    unmount();
    await renderWithProviders(inRouter(<Header back={{ href: '/home', label: 'Mis proxies' }} />));
    expect(screen.getByTestId('header-back').textContent).toBe('Mis proxies');
  });

  it('switches the language at once from the menu', async () => {
    const { i18n } = await renderWithProviders(inRouter(<Header user={user} />), { lang: 'es' });
    // The first press fetches the menu and opens it; later ones are the menu's own trigger.
    fireEvent.click(screen.getByRole('button', { name: /Idioma/ }));
    const english = await screen.findByRole('menuitemradio', { name: 'English' });
    fireEvent.click(english);
    await waitFor(() => expect(i18n.resolvedLanguage).toBe('en'));
    expect(screen.getByRole('button', { name: 'Log out' })).toBeTruthy();
    expect(document.documentElement.lang).toBe('en');
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    const trigger = screen.getByRole('button', { name: /Language/ });
    fireEvent.pointerDown(trigger, { button: 0, ctrlKey: false, pointerType: 'mouse' });
    fireEvent.click(await screen.findByRole('menuitemradio', { name: 'Español' }));
    await waitFor(() => expect(i18n.resolvedLanguage).toBe('es'));
  });

  it('opens the user menu on the first press (its code fetched then) and goes to the settings', async () => {
    const location = memoryLocation({ path: '/', record: true });
    await renderWithProviders(
      <Router hook={location.hook}>
        <Header user={user} />
      </Router>,
      { lang: 'en' },
    );
    fireEvent.click(screen.getByRole('button', { name: 'Account menu of jane_doe' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Settings' }));
    await waitFor(() => expect(location.history.at(-1)).toBe('/settings'));
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    // Later presses are the menu's own trigger.
    const trigger = screen.getByTestId('user-menu');
    fireEvent.pointerDown(trigger, { button: 0, ctrlKey: false, pointerType: 'mouse' });
    expect(await screen.findByRole('menuitem', { name: 'Settings' })).toBeTruthy();
  });

  it('goes to the saved servers from the user menu', async () => {
    const location = memoryLocation({ path: '/', record: true });
    await renderWithProviders(
      <Router hook={location.hook}>
        <Header user={user} />
      </Router>,
      { lang: 'es' },
    );
    fireEvent.click(screen.getByRole('button', { name: 'Menú de la cuenta de jane_doe' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Servidores' }));
    await waitFor(() => expect(location.history.at(-1)).toBe('/servers'));
  });
});
