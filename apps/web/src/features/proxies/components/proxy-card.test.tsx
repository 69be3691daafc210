import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { aProxy, SERVER_SITE } from '@/test/proxy';
import { renderWithProviders } from '@/test/render';
import { ProxyCard } from './proxy-card';

const base = aProxy({
  id: '00000000-0000-4000-8000-000000000002',
  domain: 'shop.example.com',
  sshUser: 'deploy',
  status: 'completed',
  sslConfigured: true,
  serverSites: [{ ...SERVER_SITE, domain: 'shop.example.com' }],
  nginxConfigPath: '/etc/nginx/sites-available/proxy-shop.example.com',
  createdAt: new Date(2026, 0, 5).toISOString(),
  updatedAt: new Date(2026, 0, 5).toISOString(),
});

describe('proxy card', () => {
  it('a completed card is Active and served over HTTPS, opens https://domain safely and offers copy, no continue', async () => {
    const onEdit = vi.fn();
    await renderWithProviders(<ProxyCard proxy={base} onEdit={onEdit} />, { lang: 'en' });
    expect(screen.getByTestId('summary-state').textContent).toBe('Active');
    expect(screen.getByTestId('summary-serving').textContent).toBe(
      'Live: the server serves this proxy over HTTPS.',
    );
    const open = screen.getByTestId('proxy-open') as HTMLAnchorElement;
    expect(open.getAttribute('href')).toBe('https://shop.example.com');
    expect(open.target).toBe('_blank');
    expect(open.rel).toContain('noopener');
    expect(screen.getByTestId('proxy-copy')).toBeTruthy();
    expect(screen.queryByTestId('proxy-continue')).toBeNull();
    fireEvent.click(screen.getByTestId('proxy-edit'));
    expect(onEdit).toHaveBeenCalledWith(base);
  });

  it('links the card to its details and masks the address', async () => {
    const { container } = await renderWithProviders(<ProxyCard proxy={base} onEdit={() => {}} />);
    const link = screen.getByTestId('proxy-card-link');
    expect(link.getAttribute('href')).toBe(`/proxy-details/${base.id}`);
    expect(container.textContent).toContain('deploy@203.***.***.10');
    expect(container.textContent).not.toContain('203.0.113.10');
    // No button inside the link: the buttons sit beside it.
    expect(link.querySelector('button, a')).toBeNull();
  });

  it('a pending card offers Continue Deploy and no Abrir; the label is Spanish by default', async () => {
    await renderWithProviders(
      <ProxyCard
        proxy={{ ...base, status: 'pending', sslConfigured: false, serverSites: [] }}
        onEdit={() => {}}
      />,
    );
    expect(screen.getByTestId('summary-state').textContent).toBe('Pendiente');
    expect(screen.queryByTestId('certificate-badge')).toBeNull();
    expect(screen.queryByTestId('proxy-open')).toBeNull();
    expect(screen.getByTestId('proxy-continue').getAttribute('href')).toBe(
      `/proxy-wizard?continueId=${base.id}`,
    );
  });

  it('labels the open button Abrir in Spanish', async () => {
    await renderWithProviders(<ProxyCard proxy={base} onEdit={() => {}} />, { lang: 'es' });
    expect(screen.getByTestId('proxy-open').textContent).toContain('Abrir');
    expect(screen.getByTestId('summary-state').textContent).toBe('Activo');
  });

  it('says when the configuration changed since the deployment and offers a redeploy', async () => {
    await renderWithProviders(
      <ProxyCard proxy={{ ...base, changedSinceDeploy: true }} onEdit={() => {}} />,
      { lang: 'en' },
    );
    expect(screen.getByTestId('proxy-changed').textContent).toContain('Changed since the last');
    expect(screen.getByTestId('proxy-redeploy').textContent).toBe('Redeploy');
  });

  it('while deploying, edit and redeploy cannot act and say why', async () => {
    const onEdit = vi.fn();
    await renderWithProviders(
      <ProxyCard
        proxy={{ ...base, status: 'deploying', changedSinceDeploy: true }}
        onEdit={onEdit}
      />,
      { lang: 'en' },
    );
    for (const id of ['proxy-edit', 'proxy-redeploy']) {
      const button = screen.getByTestId(id);
      expect(button.getAttribute('aria-disabled'), id).toBe('true');
      await act(async () => {
        fireEvent.click(button);
      });
      expect((await screen.findByRole('tooltip')).textContent).toBe(
        'Not available while a deployment is running.',
      );
      await act(async () => {
        fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
      });
    }
    expect(onEdit).not.toHaveBeenCalled();
  });

  it('without a saved password, offers to enter it instead of a redeploy that would be refused', async () => {
    const proxy = { ...base, changedSinceDeploy: true, hasSshPassword: false };
    for (const [lang, text, action] of [
      ['en', 'No SSH password is saved for this server', 'Enter SSH password'],
      [
        'es',
        'No hay ninguna contraseña SSH guardada para este servidor',
        'Introducir contraseña SSH',
      ],
    ] as const) {
      const { unmount } = await renderWithProviders(<ProxyCard proxy={proxy} onEdit={() => {}} />, {
        lang,
      });
      expect(screen.getByTestId('proxy-changed').textContent).toContain(text);
      expect(screen.queryByTestId('proxy-redeploy')).toBeNull();
      const enter = screen.getByTestId('proxy-enter-password');
      expect(enter.textContent).toBe(action);
      expect(enter.getAttribute('href')).toBe(`/proxy-wizard?continueId=${base.id}`);
      unmount();
    }
  });

  // Before: Open linked `https://*.wild.example.com` and Copy URL copied it: neither reaches a site.
  it.each([
    ['en', 'Open a name…', 'Any name under wild.example.com is served: type one to open it.'],
    [
      'es',
      'Abrir un nombre…',
      'Se sirve cualquier nombre bajo wild.example.com: escribe uno para abrirlo.',
    ],
  ] as const)(
    '%s: a wildcard asks which name to open, and copies nothing',
    async (lang, button, any) => {
      const wild = {
        ...base,
        domain: '*.wild.example.com',
        serverSites: [{ ...SERVER_SITE, domain: '*.wild.example.com' }],
      };
      const { container } = await renderWithProviders(
        <ProxyCard proxy={wild} onEdit={() => {}} />,
        {
          lang,
        },
      );
      expect(screen.queryByTestId('proxy-open')).toBeNull();
      expect(screen.queryByTestId('proxy-copy')).toBeNull();
      const toggle = screen.getByTestId('proxy-open-name');
      expect(toggle.textContent).toContain(button);
      expect(toggle.getAttribute('aria-expanded')).toBe('false');
      fireEvent.click(toggle);
      expect(toggle.getAttribute('aria-expanded')).toBe('true');
      expect((await screen.findByTestId('wildcard-open')).textContent).toContain(any);
      fireEvent.change(screen.getByTestId('wildcard-name'), { target: { value: 'Shop.EU' } });
      const go = screen.getByTestId('wildcard-go') as HTMLAnchorElement;
      expect(go.getAttribute('href')).toBe('https://shop.eu.wild.example.com');
      expect(go.rel).toContain('noopener');
      const hrefs = Array.from(container.querySelectorAll('a[href]')).map((a) =>
        a.getAttribute('href'),
      );
      expect(hrefs.some((href) => href?.includes('*'))).toBe(false);
    },
  );
});
