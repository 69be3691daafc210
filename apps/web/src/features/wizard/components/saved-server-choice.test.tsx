import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { stubFetch } from '@/test/fetch';
import { renderWithProviders } from '@/test/render';
import { someFacts } from '@/test/ssh-server';
import { emptyData } from '../state/wizard-reducer';
import { ServerInfoStep } from './server-info-step';

const SERVER_ID = '00000000-0000-4000-8000-0000000000a5';
const server = {
  id: SERVER_ID,
  userId: 'u1',
  owner: 'ana',
  name: 'web-keys',
  host: '198.18.0.77',
  port: 2222,
  username: 'deploy',
  authKind: 'key',
  hasPassword: false,
  hasPrivateKey: true,
  hasPassphrase: false,
  hasSudoPassword: false,
  publicKey: 'ssh-ed25519 AAAA portico-00000000',
  hostKeyFingerprint: null,
  description: null,
  isActive: true,
  lastCheckedAt: null,
  reachable: null,
  proxyCount: 0,
  createdAt: '2026-01-05T07:08:09.000Z',
  updatedAt: '2026-01-05T07:08:09.000Z',
};

afterEach(() => vi.unstubAllGlobals());

/** Types the domain and submits step one, as the user does. */
async function submitWithDomain(domain: string) {
  await act(async () => {
    fireEvent.change(document.getElementById('wizard-domain') as HTMLInputElement, {
      target: { value: domain },
    });
  });
  await act(async () => {
    fireEvent.submit(document.querySelector('form') as HTMLFormElement);
  });
}

describe.each([
  ['en', 'Which server?', 'A new server', 'key'],
  ['es', '¿Qué servidor?', 'Un servidor nuevo', 'clave'],
] as const)('step one with saved servers (%s)', (lang, legend, newServer, keyWord) => {
  it('offers the saved servers first; choosing one hides every credential and submits its id', async () => {
    const { calls } = stubFetch({
      'GET /api/ssh-servers': { body: { servers: [server], nextCursor: null } },
      'POST /api/check-duplicate-configuration': { body: { isDuplicate: false, existingId: null } },
    });
    const location = memoryLocation({ path: '/proxy-wizard' });
    const dispatch = vi.fn();
    await renderWithProviders(
      <Router hook={location.hook}>
        <ServerInfoStep data={emptyData} dispatch={dispatch} />
      </Router>,
      { lang },
    );
    await screen.findByText(legend);
    expect(screen.getByText(newServer)).toBeTruthy();
    expect(screen.getByText(`deploy@198.18.0.77:2222 · ${keyWord}`)).toBeTruthy();
    // "A new server" is chosen until the user picks one: the typed fields are there.
    expect(document.getElementById('wizard-ssh-password')).not.toBeNull();
    await act(async () => {
      fireEvent.click(screen.getByRole('radio', { name: /web-keys/ }));
    });
    expect(document.getElementById('wizard-ssh-password')).toBeNull();
    expect(document.getElementById('wizard-server-ip')).toBeNull();
    await submitWithDomain('shop.example.com');
    await waitFor(() => expect(dispatch).toHaveBeenCalledWith({ type: 'next' }));
    expect(dispatch).toHaveBeenCalledWith({
      type: 'serverInfoSubmitted',
      info: {
        serverIp: '198.18.0.77',
        domain: 'shop.example.com',
        sshUser: 'deploy',
        sshPort: 2222,
        sshPassword: '',
        email: 'admin@shop.example.com',
        sshServerId: SERVER_ID,
      },
    });
    const check = calls.find((c) => c.url === '/api/check-duplicate-configuration');
    expect(check?.body).toMatchObject({ serverIp: '198.18.0.77', sshUser: 'deploy' });
  });
});

describe.each([
  ['en', 'What the last check of web-keys found', 'Port 80 is held by apache2, not nginx'],
  [
    'es',
    'Lo que encontró la última comprobación de web-keys',
    'El puerto 80 lo ocupa apache2, no nginx',
  ],
] as const)(
  'a chosen saved server whose facts say the deploy would fail (%s)',
  (lang, title, port) => {
    it('warns on the server step, and still lets the user go on', async () => {
      const checked = {
        ...server,
        reachable: true,
        lastCheckedAt: '2026-01-06T07:08:09.000Z',
        facts: someFacts({
          rootAccess: 'sudo_password',
          nginx: { version: null, running: false },
          ports: [
            { port: 80, listening: true, program: 'apache2' },
            { port: 443, listening: false, program: null },
          ],
        }),
      };
      stubFetch({
        'GET /api/ssh-servers': { body: { servers: [checked], nextCursor: null } },
        'POST /api/check-duplicate-configuration': {
          body: { isDuplicate: false, existingId: null },
        },
      });
      const dispatch = vi.fn();
      await renderWithProviders(
        <Router hook={memoryLocation({ path: '/proxy-wizard' }).hook}>
          <ServerInfoStep data={emptyData} dispatch={dispatch} />
        </Router>,
        { lang },
      );
      await screen.findByRole('radio', { name: /web-keys/ });
      expect(screen.queryByTestId('wizard-server-warnings')).toBeNull();
      await act(async () => {
        fireEvent.click(screen.getByRole('radio', { name: /web-keys/ }));
      });
      const warnings = screen.getByTestId('wizard-server-warnings');
      expect(warnings.textContent).toContain(title);
      const items = screen.getAllByTestId('wizard-server-warning').map((w) => w.textContent);
      expect(items).toHaveLength(2);
      expect(items[1]).toContain(port);
      expect(within(warnings).getByRole('link').getAttribute('href')).toBe(`/servers/${SERVER_ID}`);
      await submitWithDomain('shop.example.com');
      await waitFor(() => expect(dispatch).toHaveBeenCalledWith({ type: 'next' }));
    });
  },
);

describe.each([
  ['en', 'Add it with a key', 'Add this key to the server'],
  ['es', 'Añadirlo con una clave', 'Añade esta clave al servidor'],
] as const)('a new server that takes a key (%s)', (lang, addWithKey, generatedTitle) => {
  it('opens the servers page’s dialog with what was typed; the saved server is then chosen', async () => {
    const generated = {
      ...server,
      name: 'deploy@198.18.0.77',
      port: 22,
      publicKey: 'ssh-ed25519 AAAAC3Nza portico-000000a5',
    };
    let saved = false;
    const { calls } = stubFetch({
      'GET /api/ssh-servers': () => ({
        body: { servers: saved ? [generated] : [], nextCursor: null },
      }),
      'POST /api/ssh-servers': () => {
        saved = true;
        return { status: 201, body: generated };
      },
      'POST /api/check-duplicate-configuration': { body: { isDuplicate: false, existingId: null } },
    });
    const dispatch = vi.fn();
    await renderWithProviders(
      <Router hook={memoryLocation({ path: '/proxy-wizard' }).hook}>
        <ServerInfoStep data={emptyData} dispatch={dispatch} />
      </Router>,
      { lang },
    );
    await act(async () => {
      fireEvent.change(document.getElementById('wizard-server-ip') as HTMLInputElement, {
        target: { value: '198.18.0.77' },
      });
      fireEvent.change(document.getElementById('wizard-ssh-user') as HTMLInputElement, {
        target: { value: 'deploy' },
      });
      // A step that could go on as it is: the dialog's save must still not be its Next.
      fireEvent.change(document.getElementById('wizard-ssh-password') as HTMLInputElement, {
        target: { value: 'typed-password' },
      });
      fireEvent.change(document.getElementById('wizard-domain') as HTMLInputElement, {
        target: { value: 'shop.example.com' },
      });
    });
    fireEvent.click(screen.getByRole('button', { name: addWithKey }));
    const dialog = await screen.findByTestId('server-dialog');
    expect((within(dialog).getByLabelText(/IP/) as HTMLInputElement).value).toBe('198.18.0.77');
    await act(async () => {
      fireEvent.click(within(dialog).getByTestId('server-save'));
    });
    await within(dialog).findByText(generatedTitle);
    expect(
      calls.find((c) => c.method === 'POST' && c.url === '/api/ssh-servers')?.body,
    ).toMatchObject({
      name: 'deploy@198.18.0.77',
      host: '198.18.0.77',
      port: 22,
      username: 'deploy',
      authKind: 'key',
      generateKey: true,
    });
    // Saving in the dialog is not the step's Next.
    expect(dispatch).not.toHaveBeenCalled();
    await act(async () => {
      fireEvent.click(within(dialog).getByTestId('server-generated-done'));
    });
    await waitFor(() => expect(document.getElementById('wizard-ssh-password')).toBeNull());
    expect(
      (screen.getByRole('radio', { name: /deploy@198\.18\.0\.77/ }) as HTMLInputElement).checked,
    ).toBe(true);
    await submitWithDomain('shop.example.com');
    await waitFor(() => expect(dispatch).toHaveBeenCalledWith({ type: 'next' }));
    expect(dispatch).toHaveBeenCalledWith(
      expect.objectContaining({
        type: 'serverInfoSubmitted',
        info: expect.objectContaining({ sshServerId: SERVER_ID, sshPassword: '' }),
      }),
    );
  });
});
