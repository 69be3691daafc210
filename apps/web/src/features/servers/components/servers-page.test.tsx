import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { stubFetch } from '@/test/fetch';
import { renderWithProviders } from '@/test/render';
import { stubResizeObserver } from '@/test/resize-observer';
import { aServer } from '@/test/ssh-server';
import { ServersPage } from './servers-page';

stubResizeObserver();

const mine = aServer({
  name: 'web-1',
  reachable: true,
  lastCheckedAt: new Date(Date.now() - 2 * 60 * 60 * 1000).toISOString(),
  proxyCount: 2,
});
const theirs = aServer({
  id: '00000000-0000-4000-8000-0000000000b2',
  userId: 'u2',
  owner: 'bob_ops',
  name: 'db-box',
  host: '198.51.100.77',
  username: 'root',
  authKind: 'key',
  hasPassword: false,
  hasPrivateKey: true,
  proxyCount: 1,
});

async function renderList(lang: 'en' | 'es', admin = false, servers = [mine]) {
  stubFetch({ 'GET /api/ssh-servers': { body: { servers, nextCursor: null } } });
  await renderWithProviders(
    <Router hook={memoryLocation({ path: '/servers' }).hook}>
      <ServersPage admin={admin} />
    </Router>,
    { lang },
  );
  return screen.findByTestId('servers-table');
}

describe('servers list', () => {
  it('en: name, masked host, SSH user, login kind, reachable and when, proxy count', async () => {
    const table = await renderList('en');
    const row = within(table).getByText('web-1').closest('tr')!;
    const cells = within(row as HTMLElement);
    expect(cells.getByText('203.***.***.10')).toBeTruthy();
    expect(row.textContent).not.toContain('203.0.113.10');
    expect(cells.getByText('deploy')).toBeTruthy();
    expect(cells.getByText('Password')).toBeTruthy();
    expect(cells.getByText('Reachable')).toBeTruthy();
    expect(cells.getByText('Checked about 2 hours ago')).toBeTruthy();
    expect(cells.getByText('2 proxies')).toBeTruthy();
    expect(cells.getByRole('link', { name: 'Details' }).getAttribute('href')).toBe(
      `/servers/${mine.id}`,
    );
    expect(screen.queryByText('Owner')).toBeNull();
  });

  it('es: an admin sees every account’s servers with their owner; unchecked says so', async () => {
    const table = await renderList('es', true, [mine, theirs]);
    expect(within(table).getByText('Propietario')).toBeTruthy();
    const row = within(table).getByText('db-box').closest('tr')! as HTMLElement;
    expect(within(row).getByText('bob_ops')).toBeTruthy();
    expect(within(row).getByText('Clave')).toBeTruthy();
    expect(within(row).getByText('Sin comprobar')).toBeTruthy();
    expect(within(row).getByText('1 proxy')).toBeTruthy();
    expect(within(row).getByText('198.***.***.77')).toBeTruthy();
  });

  it('en: without a server, says what to save and offers to add one', async () => {
    stubFetch({ 'GET /api/ssh-servers': { body: { servers: [], nextCursor: null } } });
    await renderWithProviders(
      <Router hook={memoryLocation({ path: '/servers' }).hook}>
        <ServersPage />
      </Router>,
      { lang: 'en' },
    );
    expect((await screen.findByTestId('servers-empty')).textContent).toContain(
      'No saved server yet',
    );
    expect(screen.getByRole('button', { name: 'Add server' })).toBeTruthy();
  });
});
