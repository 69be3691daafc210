import type { TServerRun, TServerRunResult } from '@portico/shared/ssh-servers/schemas';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { sharedText } from '@/test/catalogs';
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

  it('en: Check now on an unreachable server says why', async () => {
    await open('en', {
      [`POST ${path}/check`]: {
        body: {
          server: { ...server, reachable: false },
          text: { key: 'sshServer.checkFailed' },
        },
      },
    });
    fireEvent.click(screen.getByTestId('server-check'));
    expect((await screen.findByTestId('server-check-failure')).textContent).toBe(
      'The server could not be reached.',
    );
    expect(screen.getByTestId('server-status').textContent).toBe('Unreachable');
  });

  it('en: Redeploy all starts a run, shows it as it goes, then each proxy’s outcome', async () => {
    const started = aRun({ state: 'queued', total: 3 });
    const finished = aRun({
      state: 'done',
      total: 3,
      done: 1,
      failed: 1,
      refused: 1,
      finishedAt: new Date().toISOString(),
      results: [
        result(0, 'p1', 'on.example.com', 'done'),
        result(1, 'p2', 'two.example.com', 'failed', { key: 'errors.serverError' }),
        result(2, 'p3', 'three.example.com', 'refused', {
          key: 'errors.proxyAdopted',
          params: { file: '/etc/nginx/sites-enabled/three' },
        }),
      ],
    });
    let reads = 0;
    const { calls } = await open('en', {
      [`GET ${path}/runs/latest`]: () => {
        reads += 1;
        return { body: { run: reads === 1 ? null : reads === 2 ? running(started) : finished } };
      },
      [`POST ${path}/redeploy-all`]: { status: 202, body: started },
    });
    const redeploy = screen.getByTestId('server-redeploy-all') as HTMLButtonElement;
    await waitFor(() => expect(redeploy.disabled).toBe(false));
    fireEvent.click(redeploy);
    expect((await screen.findByTestId('server-run-state')).textContent).toBe('Waiting to start');
    expect(redeploy.disabled).toBe(true);
    expect((screen.getByTestId('server-check-certificates') as HTMLButtonElement).disabled).toBe(
      true,
    );
    // Read again while unfinished: running, then done.
    await waitFor(
      () => expect(screen.getByTestId('server-run').getAttribute('data-state')).toBe('running'),
      { timeout: 5000 },
    );
    expect(screen.getByTestId('server-run-counts').textContent).toBe(
      '1 of 3 proxies: 1 done, 0 failed, 0 refused',
    );
    await waitFor(
      () => expect(screen.getByTestId('server-run').getAttribute('data-state')).toBe('done'),
      { timeout: 5000 },
    );
    expect(screen.getByTestId('server-run-state').textContent).toBe('Finished');
    expect(screen.getByTestId('server-run-counts').textContent).toBe(
      '3 of 3 proxies: 1 done, 1 failed, 1 refused',
    );
    const rows = screen.getAllByTestId('action-report-row');
    expect(rows.map((r) => [r.getAttribute('data-outcome'), r.textContent])).toEqual([
      ['done', 'on.example.comdone'],
      ['failed', `two.example.comfailed: ${sharedText('en', 'errors.serverError')}`],
      [
        'refused',
        `three.example.comrefused: ${sharedText('en', 'errors.proxyAdopted').replace('{{file}}', '/etc/nginx/sites-enabled/three')}`,
      ],
    ]);
    expect(within(rows[0]!).getByRole('link').getAttribute('href')).toBe('/proxy-details/p1');
    expect(redeploy.disabled).toBe(false);
    expect(
      calls.filter((c) => c.method === 'POST' && c.url.endsWith('/redeploy-all')),
    ).toHaveLength(1);
  });

  it('es: after a reload an unfinished run keeps the buttons disabled; its time limit is said', async () => {
    let reads = 0;
    const timedOut = aRun({
      state: 'timed-out',
      total: 200,
      done: 120,
      finishedAt: new Date().toISOString(),
      text: { key: 'sshServer.run.timedOut' },
    });
    await open('es', {
      [`GET ${path}/runs/latest`]: () => {
        reads += 1;
        return {
          body: { run: reads === 1 ? aRun({ state: 'running', total: 200, done: 120 }) : timedOut },
        };
      },
    });
    expect((await screen.findByTestId('server-run-state')).textContent).toBe('En curso');
    expect(screen.getByTestId('server-run-counts').textContent).toBe(
      '120 de 200 proxies: 120 hechos, 0 fallidos, 0 rechazados',
    );
    expect((screen.getByTestId('server-redeploy-all') as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByTestId('server-check-certificates') as HTMLButtonElement).disabled).toBe(
      true,
    );
    await waitFor(
      () =>
        expect(screen.getByTestId('server-run-state').textContent).toBe(
          'Detenido al alcanzar su límite de tiempo',
        ),
      { timeout: 5000 },
    );
    expect(screen.getByTestId('server-run-text').textContent).toBe(
      sharedText('es', 'sshServer.run.timedOut'),
    );
    expect((screen.getByTestId('server-redeploy-all') as HTMLButtonElement).disabled).toBe(false);
  });

  it('en: a second start refused (409) shows the run already going', async () => {
    let reads = 0;
    const other = aRun({ kind: 'check-certificates', state: 'running', total: 3 });
    await open('en', {
      [`GET ${path}/runs/latest`]: () => {
        reads += 1;
        return { body: { run: reads === 1 ? null : other } };
      },
      [`POST ${path}/redeploy-all`]: {
        status: 409,
        body: {
          statusCode: 409,
          code: 'server_run_active',
          message: 'x',
          text: { key: 'errors.serverRunActive.checkCertificates', params: { runId: other.id } },
        },
      },
    });
    const redeploy = screen.getByTestId('server-redeploy-all') as HTMLButtonElement;
    await waitFor(() => expect(redeploy.disabled).toBe(false));
    fireEvent.click(redeploy);
    expect((await screen.findByTestId('server-run-state')).textContent).toBe('Running');
    expect(screen.getByTestId('server-run').textContent).toContain('Check all certificates');
    expect(redeploy.disabled).toBe(true);
  });
});

/** A run of this server as the API answers it. */
function aRun(overrides: Partial<TServerRun> = {}): TServerRun {
  return {
    id: '5b0f0c1e-3d5e-4a8e-9a43-0c6bd4f2a001',
    sshServerId: server.id,
    kind: 'redeploy',
    state: 'queued',
    done: 0,
    failed: 0,
    refused: 0,
    total: 0,
    text: null,
    createdAt: new Date().toISOString(),
    startedAt: null,
    finishedAt: null,
    deadlineAt: new Date(Date.now() + 3_600_000).toISOString(),
    results: [],
    nextAfter: null,
    ...overrides,
  };
}

const running = (run: TServerRun): TServerRun => ({
  ...run,
  state: 'running',
  startedAt: new Date().toISOString(),
  done: 1,
  results: [result(0, 'p1', 'on.example.com', 'done')],
});

function result(
  position: number,
  id: string,
  domain: string,
  outcome: TServerRunResult['outcome'],
  text: TServerRunResult['text'] = null,
): TServerRunResult {
  return { position, id, domain, outcome, deploymentId: null, text };
}
