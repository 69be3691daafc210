import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { sharedText } from '@/test/catalogs';
import { stubFetch } from '@/test/fetch';
import { renderWithProviders } from '@/test/render';
import { stubResizeObserver } from '@/test/resize-observer';
import { aServer } from '@/test/ssh-server';
import { DeleteServerDialog } from './delete-server-dialog';

stubResizeObserver();

const server = aServer({ proxyCount: 2 });
const path = `/api/ssh-servers/${server.id}`;
const inUse = {
  status: 409,
  body: {
    statusCode: 409,
    code: 'ssh_server_in_use',
    message: sharedText('en', 'errors.sshServerInUse').replace('{{count}}', '2'),
    text: { key: 'errors.sshServerInUse', params: { count: 2 } },
  },
};

async function open(routes: Parameters<typeof stubFetch>[0], onDeleted = vi.fn()) {
  const { calls } = stubFetch(routes);
  await renderWithProviders(
    <Router hook={memoryLocation({ path: '/servers' }).hook}>
      <DeleteServerDialog server={server} open onOpenChange={() => {}} onDeleted={onDeleted} />
    </Router>,
    { lang: 'en' },
  );
  return calls;
}

describe('delete server dialog', () => {
  it('en: refused while in use, it says how many and deletes with their sites only when asked', async () => {
    const onDeleted = vi.fn();
    const calls = await open(
      {
        [`DELETE ${path}`]: inUse,
        [`POST ${path}/delete-with-sites`]: { body: { results: [], deleted: true } },
      },
      onDeleted,
    );
    fireEvent.click(screen.getByTestId('server-delete-confirm'));
    expect((await screen.findByTestId('server-in-use')).textContent).toBe(
      'This server is used by 2 proxies: move or delete them first.',
    );
    const confirm = screen.getByTestId('server-delete-confirm') as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    fireEvent.click(
      screen.getByLabelText('Also delete these proxies and remove their sites from the server'),
    );
    fireEvent.click(screen.getByLabelText('Also delete their certificates'));
    expect(confirm.textContent).toBe('Delete all');
    fireEvent.click(confirm);
    await waitFor(() => expect(onDeleted).toHaveBeenCalled());
    const post = calls.find((c) => c.url.endsWith('/delete-with-sites'));
    expect(post?.body).toEqual({ removeCertificates: false });
  });

  it('en: a site that could not be removed keeps the server, saying for which proxy and why', async () => {
    const onDeleted = vi.fn();
    await open(
      {
        [`DELETE ${path}`]: inUse,
        [`POST ${path}/delete-with-sites`]: {
          body: {
            deleted: false,
            results: [
              { id: 'p1', domain: 'a.example.com', ok: true, deploymentId: null, text: null },
              {
                id: 'p2',
                domain: 'b.example.com',
                ok: false,
                deploymentId: null,
                text: { key: 'errors.network' },
              },
            ],
          },
        },
      },
      onDeleted,
    );
    fireEvent.click(screen.getByTestId('server-delete-confirm'));
    await screen.findByTestId('server-in-use');
    fireEvent.click(
      screen.getByLabelText('Also delete these proxies and remove their sites from the server'),
    );
    fireEvent.click(screen.getByTestId('server-delete-confirm'));
    const kept = await screen.findByTestId('server-delete-kept');
    expect(kept.textContent).toContain('The server was kept: a site could not be removed');
    const rows = screen.getAllByTestId('action-report-row').map((row) => row.textContent);
    expect(rows).toEqual([
      'a.example.comdone',
      `b.example.comfailed: ${sharedText('en', 'errors.network')}`,
    ]);
    expect(onDeleted).not.toHaveBeenCalled();
  });
});
