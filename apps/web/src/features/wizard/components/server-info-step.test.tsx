import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
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
