import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { sharedText } from '@/test/catalogs';
import { stubFetch } from '@/test/fetch';
import { renderWithProviders } from '@/test/render';
import { stubResizeObserver } from '@/test/resize-observer';
import { aServer } from '@/test/ssh-server';
import { ServerFormDialog } from './server-form-dialog';

stubResizeObserver();

const PUBLIC_KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB0cF9mK2Lq portico-0000000a';

async function openAdd(lang: 'en' | 'es') {
  await renderWithProviders(<ServerFormDialog server={null} open onOpenChange={() => {}} />, {
    lang,
  });
  const en = lang === 'en';
  fireEvent.change(screen.getByLabelText(en ? 'Name' : 'Nombre'), { target: { value: 'web-1' } });
  fireEvent.change(
    screen.getByLabelText(en ? 'Server IP or host name' : 'IP o nombre del servidor'),
    {
      target: { value: '203.0.113.10' },
    },
  );
  fireEvent.change(screen.getByLabelText(en ? 'SSH user' : 'Usuario SSH'), {
    target: { value: 'deploy' },
  });
}

const chooseLogin = (lang: 'en' | 'es', value: 'paste' | 'generate') =>
  fireEvent.change(
    screen.getByLabelText(lang === 'en' ? 'How Portico logs in' : 'Cómo inicia sesión Portico'),
    { target: { value } },
  );

describe('add server dialog', () => {
  it('en: a generated key sends generateKey and shows the public key, its line and the command', async () => {
    const { calls } = stubFetch({
      'POST /api/ssh-servers': {
        status: 201,
        body: aServer({ authKind: 'key', username: 'deploy', publicKey: PUBLIC_KEY }),
      },
    });
    await openAdd('en');
    chooseLogin('en', 'generate');
    fireEvent.click(screen.getByTestId('server-save'));
    expect((await screen.findByTestId('public-key')).textContent).toBe(PUBLIC_KEY);
    expect(screen.getByTestId('authorize-command').textContent).toBe(
      `mkdir -p ~/.ssh && chmod 700 ~/.ssh && echo '${PUBLIC_KEY}' >> ~/.ssh/authorized_keys && chmod 600 ~/.ssh/authorized_keys`,
    );
    expect(
      screen.getByText('Or run this one line on the server, logged in as deploy:'),
    ).toBeTruthy();
    expect(
      screen.getByRole('button', {
        name: 'Copy: Public key (the exact line for ~/.ssh/authorized_keys)',
      }),
    ).toBeTruthy();
    const post = calls.find((c) => c.method === 'POST' && c.url === '/api/ssh-servers');
    expect(post?.body).toEqual({
      name: 'web-1',
      host: '203.0.113.10',
      port: 22,
      username: 'deploy',
      description: null,
      isActive: true,
      authKind: 'key',
      generateKey: true,
    });
  });

  it.each([
    ['en', 'ssh_key_public_key', 'sshKey.publicKey', 'server-private-key-error'],
    ['es', 'ssh_key_wrong_passphrase', 'sshKey.wrongPassphrase', 'server-passphrase-error'],
  ] as const)(
    '%s: a key the server refuses (%s) shows its message on its field',
    async (lang, code, key, errorId) => {
      const message = sharedText(lang, key);
      stubFetch({
        'POST /api/ssh-servers': {
          status: 400,
          body: { statusCode: 400, code, message, text: { key } },
        },
      });
      await openAdd(lang);
      chooseLogin(lang, 'paste');
      fireEvent.change(screen.getByLabelText(lang === 'en' ? 'Private key' : 'Clave privada'), {
        target: {
          value: '-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----',
        },
      });
      fireEvent.change(
        screen.getByLabelText(
          lang === 'en'
            ? 'Passphrase (only if the key has one)'
            : 'Frase de contraseña (solo si la clave tiene una)',
        ),
        { target: { value: 'secret words' } },
      );
      fireEvent.click(screen.getByTestId('server-save'));
      await waitFor(() => expect(document.getElementById(errorId)?.textContent).toBe(message));
      expect(screen.queryByTestId('generated-key')).toBeNull();
    },
  );

  it('es: the API schema’s own check refuses an empty key before sending', async () => {
    const { calls } = stubFetch({});
    await openAdd('es');
    chooseLogin('es', 'paste');
    fireEvent.click(screen.getByTestId('server-save'));
    await waitFor(() =>
      expect(document.getElementById('server-private-key-error')?.textContent).toBe(
        sharedText('es', 'sshKey.keyRequired'),
      ),
    );
    expect(calls.filter((c) => c.url === '/api/ssh-servers')).toHaveLength(0);
  });
});
