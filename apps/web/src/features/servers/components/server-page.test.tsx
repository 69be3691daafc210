import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { stubFetch } from '@/test/fetch';
import { aProxy } from '@/test/proxy';
import { pageOf } from '@/test/proxy-page';
import { renderWithProviders } from '@/test/render';
import { stubResizeObserver } from '@/test/resize-observer';
import { aServer, someFacts } from '@/test/ssh-server';
import { ServerPage } from './server-page';

stubResizeObserver();

const facts = someFacts({
  rootAccess: 'sudo_nopasswd',
  certbot: { version: null },
  renewal: 'none',
});
const server = aServer({
  facts,
  reachable: true,
  lastCheckedAt: new Date().toISOString(),
  proxyCount: 1,
  hostKeyFingerprint: 'SHA256:abc',
});
const path = `/api/ssh-servers/${server.id}`;
const onIt = aProxy({
  id: 'p1',
  domain: 'on.example.com',
  serverIp: server.host,
  sshUser: 'deploy',
  sshServerId: server.id,
});

async function open(
  lang: 'en' | 'es',
  routes: Parameters<typeof stubFetch>[0] = {},
  viewer = server.userId,
) {
  const fetched = stubFetch({
    [`GET ${path}`]: { body: server },
    // The server filters by sshServerId: the page holds this server's proxies only.
    'GET /api/user/proxy-configurations': { body: pageOf([onIt], 'next-cursor') },
    ...routes,
  });
  await renderWithProviders(
    <Router hook={memoryLocation({ path: `/servers/${server.id}` }).hook}>
      <ServerPage id={server.id} userId={viewer} />
    </Router>,
    { lang },
  );
  await screen.findByTestId('server-page');
  return fetched;
}

/** The list parameters of the reads of `url`. */
const readsOf = (calls: { url: string }[], url: string) =>
  calls
    .filter((c) => c.url.startsWith(`${url}?`))
    .map((c) => Object.fromEntries(new URLSearchParams(c.url.slice(url.length + 1))));

describe('server page', () => {
  it('es: the facts read, the pinned key, a page of the proxies on this server', async () => {
    const { calls } = await open('es');
    const shown = screen.getByTestId('server-facts');
    expect(within(shown).getByTestId('fact-os').textContent).toContain(
      'Debian GNU/Linux 12 (bookworm)',
    );
    expect(within(shown).getByTestId('fact-root').textContent).toContain('sudo sin contraseña');
    expect(within(shown).getByTestId('fact-nginx').textContent).toContain('1.22.1, en marcha');
    expect(within(shown).getByTestId('fact-certbot').textContent).toContain('no instalado');
    expect(within(shown).getByTestId('fact-ports').textContent).toContain('80: nginx · 443: libre');
    expect(within(shown).getByTestId('fact-disk').textContent).toContain('5 GiB');
    expect(screen.getByTestId('server-host-key').textContent).toBe('SHA256:abc');
    const links = within(await screen.findByTestId('server-proxies')).getAllByRole('link');
    expect(links.map((l) => l.textContent)).toEqual(['on.example.com']);
    expect(links[0]?.getAttribute('href')).toBe('/proxy-details/p1');
    expect(readsOf(calls, '/api/user/proxy-configurations')).toEqual([
      { limit: '25', sshServerId: server.id },
    ]);
    // Pages like home's: the next one asks from the cursor the server gave.
    fireEvent.click(screen.getByTestId('page-next'));
    await waitFor(() =>
      expect(readsOf(calls, '/api/user/proxy-configurations').at(-1)).toEqual({
        limit: '25',
        cursor: 'next-cursor',
        sshServerId: server.id,
      }),
    );
  });

  it('en: an admin on another account’s server reads its proxies from the list of all', async () => {
    const { calls } = await open(
      'en',
      {
        'GET /api/admin/all-proxies': {
          body: pageOf([{ ...onIt, userId: server.userId, username: 'owner' }]),
        },
      },
      'an-admin',
    );
    const links = within(await screen.findByTestId('server-proxies')).getAllByRole('link');
    expect(links.map((l) => l.textContent)).toEqual(['on.example.com']);
    expect(readsOf(calls, '/api/admin/all-proxies')).toEqual([
      { limit: '25', sshServerId: server.id },
    ]);
    expect(readsOf(calls, '/api/user/proxy-configurations')).toEqual([]);
  });

  it('en: Check now on an unreachable server says why; Redeploy all reports each proxy', async () => {
    await open('en', {
      [`POST ${path}/check`]: {
        body: {
          server: { ...server, reachable: false },
          text: { key: 'sshServer.checkFailed' },
        },
      },
      [`POST ${path}/redeploy-all`]: {
        body: {
          results: [
            { id: 'p1', domain: 'on.example.com', ok: true, deploymentId: 'd1', text: null },
          ],
        },
      },
    });
    fireEvent.click(screen.getByTestId('server-check'));
    expect((await screen.findByTestId('server-check-failure')).textContent).toBe(
      'The server could not be reached.',
    );
    expect(screen.getByTestId('server-status').textContent).toBe('Unreachable');
    fireEvent.click(screen.getByTestId('server-redeploy-all'));
    const report = await screen.findByTestId('action-report');
    expect(within(report).getByRole('link', { name: 'on.example.com' })).toBeTruthy();
    expect(report.textContent).toContain('done');
  });
});
