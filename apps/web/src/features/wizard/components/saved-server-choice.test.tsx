import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { stubFetch } from '@/test/fetch';
import { renderWithProviders } from '@/test/render';
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
    await act(async () => {
      fireEvent.change(document.getElementById('wizard-domain') as HTMLInputElement, {
        target: { value: 'shop.example.com' },
      });
    });
    await act(async () => {
      fireEvent.submit(document.querySelector('form') as HTMLFormElement);
    });
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
