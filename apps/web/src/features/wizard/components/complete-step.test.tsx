import type { TCertificateStatus } from '@portico/shared/certificates/schemas';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { aProxy } from '@/test/proxy';
import { renderWithProviders } from '@/test/render';
import { CompleteStep } from './complete-step';

const ID = '00000000-0000-4000-8000-000000000001';

function status(renewal: TCertificateStatus['renewal']): TCertificateStatus {
  return {
    configurationId: ID,
    domain: 'site.example.com',
    state: null,
    daysLeft: null,
    served: null,
    check: null,
    checkPending: true,
    onServer: null,
    nginxNotReloaded: false,
    renewal,
    recentlyIssued: { count: 1, days: 7, max: 5 },
    lastAction: null,
    held: { renew: null, renew_test: null },
    uploaded: null,
  };
}

const base = { method: 'cron' as const, setUpByPortico: false, checkedAt: '2026-11-24T08:00:00Z' };

const CONF_D_PATH = '/etc/nginx/conf.d/proxy-site.example.com.conf';

function serve(body: TCertificateStatus, nginxConfigPath: string | null = CONF_D_PATH) {
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (url) => {
    if (String(url) === `/api/proxy-configurations/${ID}`) {
      return Response.json(aProxy({ id: ID, status: 'completed', nginxConfigPath }));
    }
    if (String(url) !== `/api/proxy-configurations/${ID}/certificate`) {
      throw new Error(`unexpected ${url}`);
    }
    return Response.json(body);
  });
}

function renderStep(lang: 'en' | 'es') {
  return renderWithProviders(
    <CompleteStep
      domain="site.example.com"
      configurationId={ID}
      onCreateAnother={() => {}}
      onDashboard={() => {}}
    />,
    { lang },
  );
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the wizard says the certificate renews automatically only when it does', () => {
  it('says so, and how, when the deployment found a working scheduler', async () => {
    serve(
      status({
        ...base,
        where: '/etc/cron.d/certbot',
        working: true,
        notes: ['cron runs certbot renew from /etc/cron.d/certbot.'],
      }),
    );
    await renderStep('en');
    const line = screen.getByTestId('wizard-complete-renewal');
    await waitFor(() => expect(line.getAttribute('data-working')).toBe('true'));
    expect(line.textContent).toBe(
      'The certificate renews automatically: cron (/etc/cron.d/certbot)',
    );
  });

  it('says it does not, with what is missing and what to do, when nothing renews it', async () => {
    const notes = ['Nada en este servidor renueva los certificados.', 'Instale cron.'];
    serve(status({ ...base, method: 'none', where: null, working: false, notes }));
    await renderStep('es');
    const line = screen.getByTestId('wizard-complete-renewal');
    await waitFor(() => expect(line.getAttribute('data-working')).toBe('false'));
    expect(line.textContent).toBe(
      `El certificado NO se renueva automáticamente: ${notes.join(' ')}`,
    );
    expect(screen.getByTestId('wizard-complete-statements').textContent).not.toContain(
      'El certificado se renueva automáticamente',
    );
  });

  it('makes no claim before the server has been asked', async () => {
    serve(status(null));
    await renderStep('en');
    const line = screen.getByTestId('wizard-complete-renewal');
    await waitFor(() => expect(line.textContent).toMatch(/could not find out/));
    expect(line.hasAttribute('data-working')).toBe(false);
  });
});

describe('the wizard names the nginx file the deployment recorded', () => {
  const working = { ...base, where: '/etc/cron.d/certbot', working: true, notes: [] };

  it.each([
    ['en', 'The nginx configuration is stored in'],
    ['es', 'La configuración de nginx se guarda en'],
  ] as const)('%s: the recorded path, whatever the layout', async (lang, sentence) => {
    serve(status(working));
    await renderStep(lang);
    const line = await screen.findByTestId('wizard-complete-config');
    expect(line.textContent).toBe(`${sentence} ${CONF_D_PATH}.`);
    expect(screen.getByTestId('wizard-complete-statements').textContent).not.toContain(
      'sites-available',
    );
  });

  it('claims no path while none is recorded', async () => {
    serve(status(working), null);
    await renderStep('en');
    const renewal = screen.getByTestId('wizard-complete-renewal');
    await waitFor(() => expect(renewal.getAttribute('data-working')).toBe('true'));
    expect(screen.queryByTestId('wizard-complete-config')).toBeNull();
  });
});

// Before: a primary, two outline and a secondary button, beside two icon buttons that copied and
// opened the URL a second time.
describe('the completion actions', () => {
  it.each([
    ['en', ['Visit site', 'Copy URL', 'Create another proxy', 'Go to dashboard']],
    ['es', ['Visitar sitio', 'Copiar URL', 'Crear otro proxy', 'Ir al panel']],
  ] as const)('%s: one primary, the rest outline, each action once', async (lang, labels) => {
    serve(status(null));
    await renderStep(lang);
    const buttons = Array.from(document.querySelectorAll<HTMLElement>('[data-slot="button"]'));
    expect(buttons.map((b) => b.textContent)).toEqual(labels);
    expect(buttons.map((b) => b.dataset.variant)).toEqual([
      'default',
      'outline',
      'outline',
      'outline',
    ]);
  });
});

// Before: a wildcard proxy's last step linked `https://*.wild.example.com`, which opens nothing.
describe('a wildcard proxy’s address', () => {
  const WILD = '*.wild.example.com';

  function serveWildcard(includeApex: boolean) {
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (url) => {
      const path = String(url);
      if (path === `/api/proxy-configurations/${ID}`) {
        return Response.json(aProxy({ id: ID, domain: WILD, status: 'completed' }));
      }
      if (path === `/api/proxy-configurations/${ID}/certificate/dns`) {
        const dnsChallenge = {
          provider: 'rfc2136',
          includeApex,
          serverIp: '203.0.113.10',
          updatedAt: '2026-11-24T08:00:00Z',
        };
        return Response.json({ dnsChallenge, providers: [] });
      }
      if (path === `/api/proxy-configurations/${ID}/certificate`)
        return Response.json(status(null));
      throw new Error(`unexpected ${url}`);
    });
  }

  function renderWildcard(lang: 'en' | 'es') {
    return renderWithProviders(
      <CompleteStep
        domain={WILD}
        configurationId={ID}
        onCreateAnother={() => {}}
        onDashboard={() => {}}
      />,
      { lang },
    );
  }

  const links = () =>
    Array.from(document.querySelectorAll<HTMLAnchorElement>('a[href]')).map((a) => a.href);

  it.each([
    ['en', 'Any name under wild.example.com is served', 'Open', 'Type a host name'],
    ['es', 'Se sirve cualquier nombre bajo wild.example.com', 'Abrir', 'Escribe un nombre de host'],
  ] as const)(
    '%s: no link to *, a field that opens the name typed',
    async (lang, any, open, bad) => {
      serveWildcard(false);
      await renderWildcard(lang);
      const field = await screen.findByTestId('wildcard-open');
      expect(field.textContent).toContain(any);
      expect(links().some((href) => href.includes('*'))).toBe(false);
      expect(screen.queryByTestId('wizard-visit-site')).toBeNull();
      expect(screen.queryByTestId('wizard-copy-url')).toBeNull();
      const go = screen.getByTestId('wildcard-go');
      expect(go.textContent).toContain(open);
      expect(go.hasAttribute('href')).toBe(false);
      const type = (value: string) =>
        fireEvent.change(screen.getByTestId('wildcard-name'), { target: { value } });
      type('shop');
      expect(screen.getByTestId('wildcard-go').getAttribute('href')).toBe(
        'https://shop.wild.example.com',
      );
      type('a b');
      expect(screen.getByTestId('wildcard-name-problem').textContent).toContain(bad);
      expect(screen.getByTestId('wildcard-go').hasAttribute('href')).toBe(false);
    },
  );

  it('links the bare name when the certificate covers it', async () => {
    serveWildcard(true);
    await renderWildcard('en');
    const url = await screen.findByTestId('wizard-complete-url');
    expect(url.getAttribute('href')).toBe('https://wild.example.com');
    expect(screen.getByTestId('wizard-visit-site').getAttribute('href')).toBe(
      'https://wild.example.com',
    );
    expect(screen.getByTestId('wildcard-open')).toBeTruthy();
    expect(links().some((href) => href.includes('*'))).toBe(false);
  });
});
