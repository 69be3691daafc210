import type { TProxyConfiguration } from '@portico/shared/proxy/api';
import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { aProxy } from '@/test/proxy';
import { renderWithProviders } from '@/test/render';
import { ManagementPanel } from './management-panel';

const proxy = aProxy({ status: 'deploying' });

afterEach(() => vi.restoreAllMocks());

async function renderPanel(p: TProxyConfiguration, lang: 'en' | 'es' = 'en') {
  const fetchSpy = vi.spyOn(globalThis, 'fetch');
  await renderWithProviders(<ManagementPanel proxy={p} onRedeployStarted={vi.fn()} />, { lang });
  return fetchSpy;
}

describe('management panel', () => {
  it.each([
    ['en', 'Not available while a deployment is running.'],
    ['es', 'No disponible mientras se ejecuta un despliegue.'],
  ] as const)(
    'while deploying, reset, redeploy and delete say why they cannot act (%s)',
    async (lang, reason) => {
      const fetchSpy = await renderPanel(proxy, lang);
      for (const id of ['action-reset', 'action-redeploy', 'action-delete']) {
        const button = screen.getByTestId(id) as HTMLButtonElement;
        // Focusable (not disabled), announced as unavailable.
        expect(button.disabled, id).toBe(false);
        expect(button.getAttribute('aria-disabled'), id).toBe('true');
        await act(async () => {
          fireEvent.click(button);
        });
        expect(screen.queryByRole('alertdialog'), id).toBeNull();
        expect(screen.queryByTestId('delete-dialog'), id).toBeNull();
        expect((await screen.findByRole('tooltip')).textContent, id).toBe(reason);
        await act(async () => {
          fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
        });
      }
      expect(fetchSpy).not.toHaveBeenCalled();
      // Modify stays: the wizard follows the running deployment.
      expect(screen.getByTestId('action-modify').getAttribute('aria-disabled')).toBeNull();
    },
  );

  it('keyboard focus alone shows the reason', async () => {
    await renderPanel(proxy);
    await act(async () => {
      screen.getByTestId('action-reset').focus();
    });
    expect((await screen.findByRole('tooltip')).textContent).toBe(
      'Not available while a deployment is running.',
    );
  });

  it('a redeploy without a destination says to choose one; reset and delete act', async () => {
    await renderPanel({ ...proxy, status: 'pending', targetServer: null });
    expect(screen.getByTestId('action-redeploy').getAttribute('aria-disabled')).toBe('true');
    expect(screen.getByTestId('action-reset').getAttribute('aria-disabled')).toBeNull();
    await act(async () => {
      fireEvent.click(screen.getByTestId('action-redeploy'));
    });
    expect((await screen.findByRole('tooltip')).textContent).toBe(
      'Choose a destination server before deploying.',
    );
    await act(async () => {
      fireEvent.click(screen.getByTestId('action-delete'));
    });
    expect(screen.getByTestId('delete-dialog')).toBeTruthy();
  });

  it('when nothing blocks them, reset asks for confirmation', async () => {
    await renderPanel({ ...proxy, status: 'failed' });
    await act(async () => {
      fireEvent.click(screen.getByTestId('action-reset'));
    });
    expect(screen.getByTestId('reset-dialog')).toBeTruthy();
  });
});
