import type { TAuditEntry } from '@portico/shared/admin/api';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '@/test/fetch';
import { renderWithProviders } from '@/test/render';
import { AuditPage } from './audit-page';

afterEach(() => vi.unstubAllGlobals());

const entry = (id: number, action: string): TAuditEntry => ({
  id,
  actorId: 'a1',
  actorUsername: 'root-admin',
  action,
  targetType: 'proxy_configuration',
  targetId: 'p1',
  targetOwnerId: 'u2',
  changes: [],
  createdAt: new Date(2026, 10, 22, 10, 0, id).toISOString(),
});

describe('audit page', () => {
  it('loads more by nextCursor and filters by user and by proxy', async () => {
    const { calls } = stubFetch({
      'GET /api/admin/users': {
        body: [
          {
            id: 'u2',
            username: 'bob',
            email: 'b@example.com',
            role: 'user',
            proxyCount: 1,
            createdAt: '',
          },
        ],
      },
      'GET /api/admin/all-proxies': {
        body: [
          {
            id: 'p1',
            domain: 'shop.example.com',
            targetServer: null,
            status: 'pending',
            createdAt: '',
            userId: 'u2',
            username: 'bob',
            email: 'b@example.com',
          },
        ],
      },
      'GET /api/admin/audit-log': () => {
        const url = String(calls.at(-1)?.url);
        return url.includes('before=2')
          ? { body: { entries: [entry(1, 'proxy.deploy')], nextCursor: null } }
          : {
              body: {
                entries: [entry(3, 'proxy.admin_edit'), entry(2, 'proxy.reset')],
                nextCursor: 2,
              },
            };
      },
    });
    await renderWithProviders(<AuditPage />, { lang: 'en' });
    await waitFor(() => expect(screen.getAllByTestId('audit-entry')).toHaveLength(2));
    fireEvent.click(screen.getByTestId('audit-load-more'));
    await waitFor(() => expect(screen.getAllByTestId('audit-entry')).toHaveLength(3));
    expect(screen.getAllByTestId('audit-action').map((a) => a.textContent)).toEqual([
      'edited as admin',
      'reset',
      'deployed',
    ]);
    expect(screen.queryByTestId('audit-load-more')).toBeNull();
    // The proxy is named by its domain once the admin list is in.
    await waitFor(() =>
      expect(screen.getAllByTestId('audit-target')[0]?.textContent).toBe('proxy shop.example.com'),
    );

    await screen.findByRole('option', { name: 'bob (b@example.com)' });
    fireEvent.change(screen.getByLabelText('User'), { target: { value: 'u2' } });
    await screen.findByRole('option', { name: 'shop.example.com' });
    fireEvent.change(screen.getByLabelText('Proxy'), { target: { value: 'p1' } });
    await waitFor(() =>
      expect(calls.some((c) => c.url.includes('userId=u2&proxyId=p1'))).toBe(true),
    );
  });
});
