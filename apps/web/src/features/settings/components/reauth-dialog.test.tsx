import { act, fireEvent, screen } from '@testing-library/react';
import * as React from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { stubResizeObserver } from '@/test/resize-observer';
import { ReauthDialog } from './reauth-dialog';

stubResizeObserver();

/** The dialog open until it asks to close; `send` answers when `finish` is called. */
function Harness({ send }: { send: (input: unknown) => Promise<unknown> }) {
  const [open, setOpen] = React.useState(true);
  return open ? (
    <ReauthDialog
      open
      onOpenChange={setOpen}
      title="Confirm it is you"
      description="Before a token is made"
      submitLabel="Create"
      send={send}
      testId="the-reauth"
    />
  ) : (
    <p data-testid="closed" />
  );
}

function pendingSend() {
  let finish = () => {};
  const send = vi.fn(
    () =>
      new Promise<void>((resolve) => {
        finish = resolve;
      }),
  );
  return { send, finish: () => finish() };
}

// Its frame is FormDialog's: these pin what the dialog did before it took it.
describe('the sign-in-again dialog', () => {
  it('is a dialog named by its title, with the code field focused first; its form sends the password', async () => {
    const { send, finish } = pendingSend();
    await renderWithProviders(<Harness send={send} />, { lang: 'en' });
    const dialog = screen.getByRole('dialog', { name: 'Confirm it is you' });
    expect(dialog.getAttribute('data-testid')).toBe('the-reauth');
    expect(screen.getByRole('dialog', { description: 'Before a token is made' })).toBe(dialog);
    const code = screen.getByLabelText('Code from the app, or a recovery code');
    expect(document.activeElement).toBe(code);
    const password = screen.getByLabelText('Current password');
    fireEvent.change(password, { target: { value: 'Secret123' } });
    fireEvent.submit(password.closest('form')!);
    expect(send).toHaveBeenCalledWith({ password: 'Secret123' });
    await act(async () => finish());
  });

  it('cannot be closed while it sends (Escape, Cancel); afterwards Escape closes it', async () => {
    const { send, finish } = pendingSend();
    await renderWithProviders(<Harness send={send} />, { lang: 'en' });
    fireEvent.change(screen.getByLabelText('Code from the app, or a recovery code'), {
      target: { value: '123456' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(send).toHaveBeenCalledWith({ code: '123456' });
    const cancel = screen.getByRole('button', { name: 'Cancel' }) as HTMLButtonElement;
    expect(cancel.disabled).toBe(true);
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
    expect(screen.getByTestId('the-reauth')).toBeTruthy();

    await act(async () => finish());
    expect(cancel.disabled).toBe(false);
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
    expect(await screen.findByTestId('closed')).toBeTruthy();
  });
});
