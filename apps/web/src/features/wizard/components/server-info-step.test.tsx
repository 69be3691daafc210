import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { Toaster } from '@/components/ui/toaster';
import { stubFetch } from '@/test/fetch';
import { renderWithProviders } from '@/test/render';
import { emptyData } from '../state/wizard-reducer';
import { ServerInfoStep } from './server-info-step';

async function type(id: string, value: string) {
  const input = document.getElementById(id) as HTMLInputElement;
  await act(async () => {
    fireEvent.change(input, { target: { value } });
  });
}

const hiddenEmail = () =>
  (document.querySelector('[data-testid="wizard-email"]') as HTMLInputElement).value;

describe.each([
  [
    'en',
    'valid',
    'Invalid IP address format',
    'Leave the field empty to keep it',
    'Enter the SSH password for this server: the saved one is only sent to the server, port and user it was entered for.',
  ],
  [
    'es',
    'válido',
    'Formato de dirección IP no válido',
    'Deja el campo vacío para conservarla',
    'Introduce la contraseña SSH de este servidor: la guardada solo se envía al servidor, puerto y usuario para los que se introdujo.',
  ],
] as const)('server info step (%s)', (lang, okLabel, ipError, savedHint, newServerMessage) => {
  it('fills the hidden e-mail from the domain and marks passing fields', async () => {
    await renderWithProviders(<ServerInfoStep data={emptyData} dispatch={vi.fn()} />, { lang });
    // root is the default user and already passes.
    expect(screen.getAllByText(okLabel)).toHaveLength(1);
    expect((document.getElementById('wizard-ssh-user') as HTMLInputElement).value).toBe('root');

    await type('wizard-domain', 'App.Example.com');
    expect(hiddenEmail()).toBe('admin@app.example.com');
    await type('wizard-server-ip', '198.18.0.10');
    await type('wizard-ssh-password', 's3cret');
    expect(screen.getAllByText(okLabel)).toHaveLength(4);

    await type('wizard-server-ip', '198.18.0.300');
    expect(screen.getAllByText(okLabel)).toHaveLength(3);
    expect(screen.getByText(ipError)).toBeTruthy();
  });

  const saved = {
    ...emptyData,
    serverIp: '198.18.0.10',
    domain: 'a.example.com',
    email: 'ops@example.org',
    savedPasswordFor: { serverIp: '198.18.0.10', sshUser: 'root', sshPort: 22 },
  };

  it('keeps a chosen e-mail and offers to keep a saved password', async () => {
    await renderWithProviders(<ServerInfoStep data={saved} dispatch={vi.fn()} />, { lang });
    await type('wizard-domain', 'b.example.com');
    expect(hiddenEmail()).toBe('ops@example.org');
    expect(screen.getByText(new RegExp(savedHint))).toBeTruthy();
    // An empty password passes when one is saved for this server, port and user.
    expect(screen.getAllByText(okLabel)).toHaveLength(4);
  });

  it('asks for the password again once the server, port or user differs from the saved one', async () => {
    for (const [id, value] of [
      ['wizard-server-ip', '198.18.0.11'],
      ['wizard-ssh-user', 'deploy'],
      ['wizard-ssh-port', '2222'],
    ] as const) {
      const { unmount } = await renderWithProviders(
        <ServerInfoStep data={saved} dispatch={vi.fn()} />,
        { lang },
      );
      await type(id, value);
      // Everything else passes; the empty password no longer does, and says why.
      expect(screen.getAllByText(okLabel)).toHaveLength(3);
      expect(screen.getByText(newServerMessage)).toBeTruthy();
      unmount();
    }
  });
});

const existingId = '00000000-0000-4000-8000-0000000000ee';

/** The step at /proxy-wizard with the app's toasts, the duplicate check answering `answer`. */
async function submitDuplicate(
  lang: 'en' | 'es',
  answer: { isDuplicate: boolean; existingId: string | null },
) {
  stubFetch({ 'POST /api/check-duplicate-configuration': { body: answer } });
  const location = memoryLocation({ path: '/proxy-wizard', record: true });
  const dispatch = vi.fn();
  const view = await renderWithProviders(
    <Router hook={location.hook}>
      <ServerInfoStep data={emptyData} dispatch={dispatch} />
      <Toaster />
    </Router>,
    { lang },
  );
  await type('wizard-server-ip', '198.18.0.10');
  await type('wizard-domain', 'shop.example.com');
  await type('wizard-ssh-password', 's3cret');
  await act(async () => {
    fireEvent.click(screen.getByTestId('wizard-next'));
  });
  return { ...view, location, dispatch };
}

const value = (id: string) => (document.getElementById(id) as HTMLInputElement).value;

describe.each([
  {
    lang: 'en',
    found: 'This proxy already exists',
    open: 'Open the existing proxy',
    managed:
      'This domain is already managed in Portico. Choose another domain or ask your administrator.',
  },
  {
    lang: 'es',
    found: 'Este proxy ya existe',
    open: 'Abrir el proxy existente',
    managed:
      'Este dominio ya está gestionado en Portico. Elige otro dominio o consulta a tu administrador.',
  },
] as const)('a duplicate domain ($lang)', ({ lang, found, open, managed }) => {
  afterEach(() => vi.unstubAllGlobals());

  // Before: the same toast for both cases, and home after 2 s with everything typed lost.
  it("of the user's own: the toast offers the existing proxy, the wizard stays, home after 2 s", async () => {
    const { location } = await submitDuplicate(lang, { isDuplicate: true, existingId });
    expect(await screen.findByText(found)).toBeTruthy();
    expect(screen.getByTestId('wizard-duplicate-open').textContent).toBe(open);
    // Meanwhile the wizard is still there, as typed.
    expect(location.history.at(-1)).toBe('/proxy-wizard');
    expect(value('wizard-domain')).toBe('shop.example.com');
    await waitFor(() => expect(location.history.at(-1)).toBe('/'), { timeout: 4000 });
  });

  it('of the user\'s own: "open the existing proxy" goes to its details', async () => {
    const { location } = await submitDuplicate(lang, { isDuplicate: true, existingId });
    await act(async () => {
      fireEvent.click(await screen.findByTestId('wizard-duplicate-open'));
    });
    expect(location.history.at(-1)).toBe(`/proxy-details/${existingId}`);
  });

  it('of another account: stays on step one, the domain field marked, everything kept', async () => {
    const { location, dispatch } = await submitDuplicate(lang, {
      isDuplicate: true,
      existingId: null,
    });
    const domain = document.getElementById('wizard-domain') as HTMLInputElement;
    await waitFor(() => expect(domain.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText(managed)).toBeTruthy();
    // The label's check mark does not say the refused domain is fine.
    const label = document.querySelector('label[for="wizard-domain"]') as HTMLElement;
    expect(label.querySelector('svg')).toBeNull();
    expect(screen.queryByText(found)).toBeNull();
    expect(dispatch).not.toHaveBeenCalledWith({ type: 'next' });
    expect(location.history).toEqual(['/proxy-wizard']);
    expect(value('wizard-domain')).toBe('shop.example.com');
    expect(value('wizard-server-ip')).toBe('198.18.0.10');
    expect(value('wizard-ssh-password')).toBe('s3cret');
  });
});
