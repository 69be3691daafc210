import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { aProxy } from '@/test/proxy';
import { renderWithProviders } from '@/test/render';
import { ProxyDetailsPage } from './proxy-details-page';

const id = '00000000-0000-4000-8000-000000000007';

const proxy = aProxy({
  id,
  sshPort: 2222,
  sshUser: 'deploy',
  status: 'completed',
  sslConfigured: true,
  nginxConfigPath: '/etc/nginx/sites-available/proxy-app.example.com',
  hostKeyFingerprint: 'SHA256:abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ',
  createdAt: new Date(2026, 0, 5, 7, 8, 9).toISOString(),
  updatedAt: new Date(2026, 0, 5, 7, 8, 9).toISOString(),
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('proxy details page', () => {
  it.each([
    ['en', 404, 'Configuration not found'],
    ['es', 404, 'Configuración no encontrada'],
    ['en', 500, 'Error loading configuration details'],
  ] as const)('in %s, a %s answer shows "%s"', async (lang, status, text) => {
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () =>
      Response.json({ statusCode: status, code: 'x', message: 'x' }, { status }),
    );
    await renderWithProviders(<ProxyDetailsPage id={id} />, { lang });
    expect((await screen.findByTestId('details-not-found')).textContent).toContain(text);
  });

  it('shows every section and never a password', async () => {
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (url) => {
      if (String(url).startsWith('/api/deployment-logs/')) return Response.json([]);
      // The certificate section's own read is another test's (certificate-section.test.tsx).
      if (String(url).endsWith('/certificate')) return new Response(null, { status: 503 });
      return Response.json(proxy);
    });
    const { container } = await renderWithProviders(<ProxyDetailsPage id={id} />, {
      lang: 'en',
    });
    await screen.findByTestId('proxy-details');
    const text = container.textContent ?? '';
    for (const heading of [
      'Basic Information',
      'Access URLs',
      'Deployment Logs',
      'Management Operations',
      'Certificate',
    ]) {
      expect(text).toContain(heading);
    }
    // One date format, the language's; the status once, in the summary at the top.
    expect(text).toContain('Jan 5, 2026, 7:08 AM');
    expect(text).not.toContain('2026-01-05');
    expect(screen.getAllByTestId('summary-state')).toHaveLength(1);
    expect(text).not.toContain('SSL Enabled');
    expect(text).toContain('http://app.example.com');
    expect(text).toContain('https://app.example.com');
    expect(await screen.findByTestId('logs-empty')).toBeTruthy();
    expect(text.toLowerCase()).not.toContain('password');
    expect(screen.getByTestId('action-modify').getAttribute('href')).toBe(
      `/proxy-wizard?continueId=${id}`,
    );
    // One column on a phone follows the page order: the actions before any section, the log last.
    const panel = screen.getByTestId('management-panel');
    for (const later of ['basic-info', 'deployment-logs', 'certificate-section']) {
      expect(
        panel.compareDocumentPosition(screen.getByTestId(later)) & Node.DOCUMENT_POSITION_FOLLOWING,
        later,
      ).toBeTruthy();
    }
  });

  it.each([
    ['the owner', 'u1', 'Enter it again to redeploy.', true],
    ['an admin', 'u2', 'Only its owner can enter it again', false],
  ] as const)(
    'without a saved password, tells %s how it gets one; Redeploy is unavailable',
    async (_who, me, text, link) => {
      vi.spyOn(globalThis, 'fetch').mockImplementation(async (url) => {
        if (String(url).startsWith('/api/deployment-logs/')) return Response.json([]);
        // The certificate section's own read is another test's (certificate-section.test.tsx).
        if (String(url).endsWith('/certificate')) return new Response(null, { status: 503 });
        // The certificate section's own read is another test's (certificate-section.test.tsx).
        if (String(url).endsWith('/certificate')) return new Response(null, { status: 503 });
        if (String(url) === '/api/auth/user') {
          return Response.json({ id: me, username: 'me', email: 'me@example.com', role: 'admin' });
        }
        return Response.json({ ...proxy, hasSshPassword: false, changedSinceDeploy: true });
      });
      await renderWithProviders(<ProxyDetailsPage id={id} />, { lang: 'en' });
      const notice = await screen.findByTestId('password-needed');
      await waitFor(() => expect(notice.textContent).toContain(text));
      expect(screen.queryByTestId('password-needed-enter') !== null).toBe(link);
      // Unavailable, with the reason (the button keeps its focus for it: aria-disabled).
      expect(screen.getByTestId('action-redeploy').getAttribute('aria-disabled')).toBe('true');
    },
  );

  // Before: Access URLs listed http:// and https://*.wild.example.com, which open nothing.
  it.each([
    ['en', false, 'Any name under wild.example.com is served'],
    ['es', true, 'Se sirve cualquier nombre bajo wild.example.com'],
  ] as const)(
    '%s: a wildcard’s access URLs are its bare name when covered (%s), and a field for any name under it',
    async (lang, includeApex, any) => {
      const wild = { ...proxy, domain: '*.wild.example.com' };
      vi.spyOn(globalThis, 'fetch').mockImplementation(async (url) => {
        const path = String(url);
        if (path.startsWith('/api/deployment-logs/')) return Response.json([]);
        if (path.endsWith('/certificate')) return new Response(null, { status: 503 });
        if (path.endsWith('/certificate/dns')) {
          const dnsChallenge = {
            provider: 'cloudflare',
            includeApex,
            serverIp: '203.0.113.10',
            updatedAt: '2026-01-05T07:08:09.000Z',
          };
          return Response.json({ dnsChallenge, providers: [] });
        }
        return Response.json(wild);
      });
      await renderWithProviders(<ProxyDetailsPage id={id} />, { lang });
      const urls = await screen.findByTestId('access-urls');
      await waitFor(() => expect(urls.textContent).toContain(any));
      const text = urls.textContent ?? '';
      expect(text).not.toContain('*.');
      if (includeApex) {
        expect(text).toContain('http://wild.example.com');
        expect(text).toContain('https://wild.example.com');
      } else {
        expect(text).not.toContain('://');
      }
      const hrefs = Array.from(urls.querySelectorAll('a[href]')).map((a) => a.getAttribute('href'));
      expect(hrefs.some((href) => href?.includes('*'))).toBe(false);
    },
  );

  // Before: a stored domain no URL parser takes (planted straight in the database) threw in the
  // Access URLs section and the whole page showed "could not show this screen".
  it('a stored domain that is no valid URL host still shows the page, as text', async () => {
    const hostile = '<img src=x onerror="alert(1)">';
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (url) => {
      if (String(url).startsWith('/api/deployment-logs/')) return Response.json([]);
      if (String(url).endsWith('/certificate')) return new Response(null, { status: 503 });
      return Response.json({ ...proxy, domain: hostile });
    });
    const { container } = await renderWithProviders(<ProxyDetailsPage id={id} />, { lang: 'en' });
    const urls = await screen.findByTestId('access-urls');
    expect(urls.textContent).toContain(`https://${hostile}`);
    expect(container.querySelector('img')).toBeNull();
  });
});
