import type { TProxyConfiguration } from '@portico/shared/proxy/api';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import { aProxy } from '@/test/proxy';
import { renderWithProviders } from '@/test/render';
import { HostKeyValue } from './host-key-row';

const FINGERPRINT = 'SHA256:abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ';

const proxy = (overrides: Partial<TProxyConfiguration> = {}) =>
  aProxy({ status: 'failed', hostKeyFingerprint: FINGERPRINT, ...overrides });

afterEach(() => {
  vi.restoreAllMocks();
});

describe('pinned host key (re-pinning is explicit)', () => {
  it('forgets the key only after the confirmation names it, then says so', async () => {
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockImplementation(async (url) => {
      if (String(url).includes('csrf')) return Response.json({ token: 't' });
      return Response.json({ ...proxy(), hostKeyFingerprint: null });
    });
    await renderWithProviders(
      <>
        <HostKeyValue proxy={proxy()} />
        <Toaster />
      </>,
      { lang: 'en' },
    );
    expect(screen.getByTestId('detail-host-key').textContent).toBe(FINGERPRINT);
    fireEvent.click(screen.getByTestId('action-forget-host-key'));
    const dialog = await screen.findByTestId('forget-host-key-dialog');
    expect(dialog.textContent).toContain(FINGERPRINT);
    expect(dialog.textContent).toContain('ssh-keygen -lf');
    const deletes = () =>
      fetchMock.mock.calls.filter(
        ([, init]) => (init as RequestInit | undefined)?.method === 'DELETE',
      );
    expect(deletes()).toHaveLength(0);
    fireEvent.click(screen.getByTestId('forget-host-key-confirm'));
    await waitFor(() => expect(deletes()).toHaveLength(1));
    expect(String(deletes()[0]![0])).toBe(
      '/api/proxy-configurations/00000000-0000-4000-8000-000000000009/host-key',
    );
    expect(await screen.findByText(/Host key forgotten/)).toBeTruthy();
  });

  it('cannot be used while deploying, and says when nothing is pinned (es)', async () => {
    const { unmount } = await renderWithProviders(
      <HostKeyValue proxy={proxy({ status: 'deploying' })} />,
      { lang: 'es' },
    );
    const forget = screen.getByTestId('action-forget-host-key');
    expect(forget.getAttribute('aria-disabled')).toBe('true');
    expect(forget.textContent).toBe('Olvidar clave de host');
    await act(async () => {
      fireEvent.click(forget);
    });
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect((await screen.findByRole('tooltip')).textContent).toBe(
      'No disponible mientras se ejecuta un despliegue.',
    );
    unmount();
    await renderWithProviders(<HostKeyValue proxy={proxy({ hostKeyFingerprint: null })} />, {
      lang: 'es',
    });
    expect(screen.queryByTestId('action-forget-host-key')).toBeNull();
    expect(screen.getByText(/Aún sin fijar/)).toBeTruthy();
  });
});
