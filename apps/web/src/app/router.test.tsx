import type { TPublicUser } from '@portico/shared/auth/schemas';
import { QueryClient } from '@tanstack/react-query';
import { act, screen } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { userQueryKey } from '@/lib/current-user';
import { renderWithProviders } from '@/test/render';
import { TEST_USER } from '@/test/users';
import { AppRouter } from './router';

const baseUser = TEST_USER;

/** Seeds the session answer in the cache (no network), then renders the router at `path`. */
async function renderAt(path: string, user: TPublicUser | null, lang: 'es' | 'en' = 'es') {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } },
  });
  queryClient.setQueryData(userQueryKey, user);
  const { hook } = memoryLocation({ path });
  return renderWithProviders(
    <Router hook={hook}>
      <AppRouter />
    </Router>,
    { lang, queryClient },
  );
}

describe('session check', () => {
  it('shows a centred spinner while it runs; with no answer, says so instead of the landing page', {
    timeout: 30_000,
  }, async () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const { hook } = memoryLocation({ path: '/' });
    // Nothing seeded: the real query runs, and jsdom cannot reach a server. It is tried again
    // (SESSION_RETRY_DELAYS_MS, 3.5 s in all) before the page says Portico did not answer.
    await renderWithProviders(
      <Router hook={hook}>
        <AppRouter />
      </Router>,
      { queryClient },
    );
    expect(screen.getByTestId('page-spinner')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Cargando…');
    const failed = await screen.findByTestId('session-failed', {}, { timeout: 10_000 });
    expect(failed.textContent).toContain('Portico no respondió');
    expect(screen.queryByRole('tab', { name: 'Iniciar sesión' })).toBeNull();
    // "Reintentar" asks again, in place: a loading status, then the same answer.
    await act(async () => {
      screen.getByRole('button', { name: 'Reintentar' }).click();
    });
    expect(await screen.findByTestId('route-loading')).toBeTruthy();
    expect(screen.queryByTestId('session-failed')).toBeNull();
    expect(await screen.findByTestId('session-failed', {}, { timeout: 10_000 })).toBeTruthy();
  });
});

// Before any test that shows the wizard: once its chunk is in, React.lazy never suspends again.
describe('a screen behind sign-in, while its code loads', () => {
  // The wizard's code is transformed on first import here: over 22 s once on a loaded 2-core
  // machine (a clean-clone run beside builds and a browser), so the wait allows a minute and the
  // test's own limit is above it (the web project's default is 15 s).
  it('keeps the header and shows a loading status in the main area, then the screen', {
    timeout: 90_000,
  }, async () => {
    await renderAt('/proxy-wizard', baseUser, 'en');
    expect(screen.getByTestId('header-username').textContent).toBe('jane_doe');
    const loading = screen.getByTestId('route-loading');
    expect(loading.closest('main')).toBeTruthy();
    expect(loading.textContent).toBe('Loading…');
    expect(await screen.findByTestId('wizard-back-home', {}, { timeout: 60_000 })).toBeTruthy();
    expect(screen.queryByTestId('route-loading')).toBeNull();
  });
});

describe('routes signed out', () => {
  it('serves the landing page at /', async () => {
    await renderAt('/', null, 'en');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(
      'Put your domain behind HTTPS',
    );
    expect(screen.getByRole('tab', { name: 'Log in' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Register' })).toBeTruthy();
    expect(screen.getByText(/© \d{4} Portico/)).toBeTruthy();
  });

  it.each([
    '/home',
    '/proxy-wizard',
    '/proxy-wizard?continueId=x',
    '/proxy-details/00000000-0000-4000-8000-000000000001',
    '/settings',
    '/admin/users',
  ])('shows the sign-in card, not "not found", at %s', async (path) => {
    await renderAt(path, null, 'en');
    expect(screen.queryByTestId('not-found')).toBeNull();
    expect(screen.getByTestId('sign-in-notice').textContent).toBe(
      'Log in to open this page: Portico takes you there as soon as you are signed in.',
    );
    expect(screen.getByRole('tab', { name: 'Log in' }).getAttribute('aria-selected')).toBe('true');
  });

  it.each(['/anything/else', '/proxy-details/a/b'])(
    'shows not found at %s with a link to the landing page',
    async (path) => {
      await renderAt(path, null);
      expect(screen.getByTestId('not-found')).toBeTruthy();
      const link = screen.getByRole('link', { name: /Ir a la página de inicio/ });
      expect(link.getAttribute('href')).toBe('/');
    },
  );

  it('after signing in shows the page that was asked for, at the same address', async () => {
    const { queryClient } = await renderAt('/proxy-wizard', null, 'en');
    expect(screen.getByTestId('sign-in-notice')).toBeTruthy();
    await act(async () => {
      queryClient.setQueryData(userQueryKey, baseUser);
    });
    // The wizard is a chunk of its own: the first import here can take longer than findBy waits.
    expect(
      await screen.findByRole(
        'heading',
        { level: 1, name: 'New reverse proxy' },
        { timeout: 20_000 },
      ),
    ).toBeTruthy();
    expect(screen.queryByTestId('sign-in-notice')).toBeNull();
  });

  it('a session that ends mid-use says so on the sign-in card, and signing in returns', async () => {
    const { queryClient } = await renderAt('/admin/users', { ...baseUser, role: 'admin' }, 'es');
    expect(await screen.findByTestId('admin-users-page', {}, { timeout: 20_000 })).toBeTruthy();
    await act(async () => {
      queryClient.setQueryData(userQueryKey, null);
    });
    expect((await screen.findByTestId('sign-in-notice')).textContent).toBe(
      'Tu sesión ha terminado. Vuelve a iniciar sesión para volver a donde estabas.',
    );
    await act(async () => {
      queryClient.setQueryData(userQueryKey, { ...baseUser, role: 'admin' });
    });
    expect(await screen.findByTestId('admin-users-page')).toBeTruthy();
  });

  it('an admin page asked for by a user who is not an admin is not found after sign-in', async () => {
    const { queryClient } = await renderAt('/admin/users', null);
    await act(async () => {
      queryClient.setQueryData(userQueryKey, baseUser);
    });
    expect(await screen.findByTestId('not-found')).toBeTruthy();
  });
});

describe('routes signed in', () => {
  // The first import of a screen's modules (transformed on the fly here) can take longer than
  // findBy waits; the router still suspends and shows the screen when its chunk is in.
  beforeAll(async () => {
    await import('./routes/home-route');
  });

  it.each(['/', '/home'])('welcomes the user by username at %s', async (path) => {
    await renderAt(path, baseUser, 'en');
    // The header is there at once; the home screen arrives as its own chunk.
    expect(screen.getByTestId('header-username').textContent).toBe('jane_doe');
    expect((await screen.findByTestId('welcome-heading')).textContent).toBe('Welcome, jane_doe');
    expect(screen.getByTestId('header-username').textContent).toBe('jane_doe');
    expect(screen.getByTestId('header-email').textContent).toBe('jane@example.com');
    expect(screen.getByRole('button', { name: 'Log out' })).toBeTruthy();
  });

  it('prefers the first name, and shows initials in the avatar', async () => {
    await renderAt('/', { ...baseUser, firstName: 'Ana', lastName: 'García' });
    expect((await screen.findByTestId('welcome-heading')).textContent).toBe('Hola, Ana');
    expect(screen.getAllByText('AG').length).toBeGreaterThan(0);
  });

  it('shows not found at an unknown path with a link home', async () => {
    await renderAt('/nope', baseUser);
    expect(screen.getByTestId('not-found')).toBeTruthy();
    expect(screen.getByRole('link', { name: /Ir al inicio/ }).getAttribute('href')).toBe('/');
  });
});
