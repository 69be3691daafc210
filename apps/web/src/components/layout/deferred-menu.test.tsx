import { fireEvent, screen, waitFor } from '@testing-library/react';
import { lazy } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { DeferredMenu } from './deferred-menu';

const openButton = (props: React.ComponentProps<'button'>) => (
  <button type="button" {...props}>
    open
  </button>
);

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a header menu whose code comes on demand', () => {
  it('fetches it on hover and opens on the first press, once its code is in', async () => {
    const load = vi.fn(async () => ({
      Menu: ({ trigger }: { trigger: React.ReactElement }) => (
        <div>
          {trigger}
          <p data-testid="the-menu">the menu</p>
        </div>
      ),
    }));
    const Menu = lazy(async () => ({ default: (await load()).Menu }));
    await renderWithProviders(
      <DeferredMenu
        load={load}
        renderButton={openButton}
        renderMenu={(trigger) => <Menu trigger={trigger} />}
      />,
    );
    expect(load).not.toHaveBeenCalled();
    fireEvent.pointerEnter(screen.getByRole('button', { name: 'open' }));
    expect(load).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: 'open' }));
    expect(await screen.findByTestId('the-menu')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'open' }).getAttribute('aria-busy')).toBeNull();
  });

  it('without its code, keeps the button (it reloads the page) and the page working', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const gone = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module'));
    const Menu = lazy(gone);
    await renderWithProviders(
      <div>
        <DeferredMenu load={gone} renderButton={openButton} renderMenu={() => <Menu />} />
        <button type="button">other</button>
      </div>,
    );
    // The prefetch's failure is not an unhandled rejection; the press meets it.
    fireEvent.focus(screen.getByRole('button', { name: 'open' }));
    fireEvent.click(screen.getByRole('button', { name: 'open' }));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'open' }).getAttribute('aria-busy')).toBeNull(),
    );
    expect(screen.queryByTestId('the-menu')).toBeNull();
    expect(screen.getByRole('button', { name: 'other' })).toBeTruthy();
  });
});
