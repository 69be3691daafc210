import type { TServerSite } from '@portico/shared/proxy/api';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { SERVER_SITE } from '@/test/proxy';
import { renderWithProviders } from '@/test/render';
import { DeleteProxyDialog, type TDeleteChoice } from './delete-proxy-dialog';

const SITE = SERVER_SITE;
const BOTH: TDeleteChoice = { removeFromServer: true, removeCertificate: true };
const NONE: TDeleteChoice = { removeFromServer: false, removeCertificate: false };

const unreachable = () =>
  new ApiError(502, '502: unreachable', {
    statusCode: 502,
    code: 'server_unreachable',
    message: 'No se pudo contactar con el servidor para quitar el sitio: connect timed out.',
  });

async function open(
  onDelete: (choice: TDeleteChoice) => Promise<unknown>,
  lang: 'es' | 'en' = 'es',
  sites: TServerSite[] = [SITE],
) {
  const onDeleted = vi.fn();
  const onOpenChange = vi.fn();
  await renderWithProviders(
    <DeleteProxyDialog
      domain="app.example.com"
      sites={sites}
      open
      onOpenChange={onOpenChange}
      onDelete={onDelete}
      onDeleted={onDeleted}
    />,
    { lang },
  );
  return { onDeleted, onOpenChange };
}

describe('delete dialog', () => {
  it('asks to remove the site from the server too, checked by default', async () => {
    const onDelete = vi.fn(async () => undefined);
    const { onDeleted } = await open(onDelete, 'en');
    const box = screen.getByRole('checkbox', { name: 'Also remove the site from the server' });
    expect(box.getAttribute('aria-checked')).toBe('true');
    fireEvent.click(screen.getByTestId('delete-confirm'));
    await waitFor(() => expect(onDeleted).toHaveBeenCalledOnce());
    expect(onDelete).toHaveBeenCalledWith(BOTH);
  });

  it('names what the record says is on the server: the files, the server and the certificate', async () => {
    const onDelete = vi.fn(async () => undefined);
    await open(onDelete, 'en');
    const hint = screen.getByTestId('delete-remove-from-server').getAttribute('aria-describedby')!;
    const text = document.getElementById(hint)!.textContent!;
    expect(text).toContain('/etc/nginx/sites-available/proxy-app.example.com');
    expect(text).toContain('/etc/nginx/sites-enabled/proxy-app.example.com');
    expect(text).toContain('root@198.51.100.7:22');
    const cert = screen.getByRole('checkbox', {
      name: 'Also delete the certificate app.example.com',
    });
    expect(cert.getAttribute('aria-checked')).toBe('true');
    // Keeping the certificate is a choice.
    fireEvent.click(cert);
    fireEvent.click(screen.getByTestId('delete-confirm'));
    await waitFor(() => expect(onDelete).toHaveBeenCalledOnce());
    expect(onDelete).toHaveBeenCalledWith({ removeFromServer: true, removeCertificate: false });
  });

  it('with nothing recorded on a server, offers no removal and deletes only the configuration', async () => {
    const onDelete = vi.fn(async () => undefined);
    const { onDeleted } = await open(onDelete, 'es', []);
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.getByTestId('delete-nothing-on-server').textContent).toContain(
      'Portico no ha escrito nada en ningún servidor',
    );
    fireEvent.click(screen.getByTestId('delete-confirm'));
    await waitFor(() => expect(onDeleted).toHaveBeenCalledOnce());
    expect(onDelete).toHaveBeenCalledWith(NONE);
  });

  it('says when a cut run left the record unconfirmed, and covers a site whose files are unknown', async () => {
    const onDelete = vi.fn(async () => undefined);
    await open(onDelete, 'en', [{ ...SITE, files: [], certificate: null, unconfirmed: true }]);
    expect(screen.getByTestId('delete-unconfirmed').textContent).toContain('may not be there');
    expect(screen.queryByRole('checkbox', { name: /certificate/ })).toBeNull();
    const hint = screen.getByTestId('delete-remove-from-server').getAttribute('aria-describedby')!;
    expect(document.getElementById(hint)!.textContent).toContain(
      'Removes any Portico site for app.example.com from root@198.51.100.7:22',
    );
  });

  it('deletes from Portico only when the box is cleared', async () => {
    const onDelete = vi.fn(async () => undefined);
    const { onDeleted } = await open(onDelete);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Quitar también el sitio del servidor' }));
    fireEvent.click(screen.getByTestId('delete-confirm'));
    await waitFor(() => expect(onDeleted).toHaveBeenCalledOnce());
    expect(onDelete).toHaveBeenCalledWith(NONE);
  });

  it('offers "delete from Portico only" when the server cannot be reached', async () => {
    const onDelete = vi.fn(async (choice: TDeleteChoice) => {
      if (choice.removeFromServer) throw unreachable();
    });
    const { onDeleted } = await open(onDelete);
    fireEvent.click(screen.getByTestId('delete-confirm'));
    const alert = await screen.findByTestId('delete-unreachable');
    // The server's sentence alone: no title saying again that the site was not removed.
    expect(alert.textContent).toBe(
      'No se pudo contactar con el servidor para quitar el sitio: connect timed out.',
    );
    expect(onDeleted).not.toHaveBeenCalled();
    const fallback = screen.getByRole('button', { name: 'Eliminar solo de Portico' });
    fireEvent.click(fallback);
    await waitFor(() => expect(onDeleted).toHaveBeenCalledOnce());
    expect(onDelete.mock.calls).toEqual([[BOTH], [NONE]]);
  });

  it('keeps the dialog open and the buttons disabled while the request runs', async () => {
    let finish: () => void = () => {};
    const onDelete = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const { onDeleted } = await open(onDelete, 'en');
    fireEvent.click(screen.getByTestId('delete-confirm'));
    await waitFor(() =>
      expect(screen.getByTestId('delete-confirm').hasAttribute('disabled')).toBe(true),
    );
    expect(screen.getByTestId('delete-cancel').hasAttribute('disabled')).toBe(true);
    finish();
    await waitFor(() => expect(onDeleted).toHaveBeenCalledOnce());
  });

  it.each([
    [
      'the server was reached but the removal failed',
      502,
      'remove_failed',
      'Removing the site from the server failed: nginx -t failed.',
      'nginx -t',
    ],
    [
      'no password is saved for the server the site is on',
      400,
      'remove_needs_password',
      'No SSH password is saved for root@198.51.100.7:22, where this site was written.',
      'root@198.51.100.7:22',
    ],
  ])('also offers it when %s', async (_what, status, code, message, shown) => {
    const onDelete = vi.fn(async (choice: TDeleteChoice) => {
      if (!choice.removeFromServer) return;
      throw new ApiError(status, `${status}: ${code}`, { statusCode: status, code, message });
    });
    const { onDeleted } = await open(onDelete, 'en');
    fireEvent.click(screen.getByTestId('delete-confirm'));
    expect((await screen.findByTestId('delete-unreachable')).textContent).toContain(shown);
    fireEvent.click(screen.getByRole('button', { name: 'Delete from Portico only' }));
    await waitFor(() => expect(onDeleted).toHaveBeenCalledOnce());
  });

  it('does not offer the fallback for other failures', async () => {
    const onDelete = vi.fn(async () => {
      throw new ApiError(500, '500: boom');
    });
    const { onDeleted } = await open(onDelete, 'en');
    fireEvent.click(screen.getByTestId('delete-confirm'));
    await waitFor(() => expect(onDelete).toHaveBeenCalledOnce());
    expect(screen.queryByTestId('delete-unreachable')).toBeNull();
    expect(screen.queryByTestId('delete-portico-only')).toBeNull();
    expect(onDeleted).not.toHaveBeenCalled();
  });
});
