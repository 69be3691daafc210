import { act, screen } from '@testing-library/react';
import { lazy } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Route, Router, Switch } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { AppLayout } from '@/app/layout';
import { renderWithProviders } from '@/test/render';
import { TEST_USER } from '@/test/users';

const user = TEST_USER;

// A screen whose chunk does not arrive, as after an update removed the file.
const Gone = lazy(() =>
  Promise.reject(new TypeError('Failed to fetch dynamically imported module')),
);

async function renderAt(path: string, lang: 'es' | 'en') {
  const location = memoryLocation({ path });
  await renderWithProviders(
    <Router hook={location.hook}>
      <AppLayout user={user}>
        <Switch>
          <Route path="/gone" component={Gone} />
          <Route>
            <p data-testid="other-screen">other</p>
          </Route>
        </Switch>
      </AppLayout>
    </Router>,
    { lang },
  );
  return location;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a screen that cannot be shown', () => {
  it.each([
    ['en', 'This screen could not be shown', 'Reload'],
    ['es', 'No se pudo mostrar esta pantalla', 'Recargar'],
  ] as const)('says so in the main area (%s), header still there', async (lang, title, reload) => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await renderAt('/gone', lang);
    const failed = await screen.findByTestId('screen-failed');
    expect(failed.closest('main')).toBeTruthy();
    expect(failed.textContent).toContain(title);
    expect(screen.getByRole('button', { name: reload })).toBeTruthy();
    expect(screen.getByTestId('header-username').textContent).toBe('jane_doe');
  });

  it('lets another screen show after navigating away', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const location = await renderAt('/gone', 'en');
    await screen.findByTestId('screen-failed');
    act(() => location.navigate('/home'));
    expect(await screen.findByTestId('other-screen')).toBeTruthy();
    expect(screen.queryByTestId('screen-failed')).toBeNull();
  });
});
