import type { TProxyConfiguration } from '@portico/shared/proxy/api';
import { QueryClient } from '@tanstack/react-query';
import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { proxyKeys } from '@/lib/query-keys';
import { aProxy } from '@/test/proxy';
import { renderWithProviders } from '@/test/render';
import { ProxyWizardPage } from './proxy-wizard-page';

const id = '00000000-0000-4000-8000-0000000000aa';
const saved = aProxy({
  id,
  domain: 'shop.example.com',
  email: 'admin@shop.example.com',
  status: 'completed',
  sslConfigured: true,
  lastDeployedAt: '2026-01-05T07:08:09.000Z',
});

afterEach(() => vi.unstubAllGlobals());

async function openWizard(path: string, config: TProxyConfiguration | null, lang: 'en' | 'es') {
  // Nothing else is asked of the server here: any request is answered 404.
  vi.stubGlobal(
    'fetch',
    vi.fn(async () =>
      Response.json({ statusCode: 404, code: 'not_found', message: 'x' }, { status: 404 }),
    ),
  );
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } },
  });
  if (config) queryClient.setQueryData(proxyKeys.detail(config.id), config);
  const { hook } = memoryLocation({ path });
  return renderWithProviders(
    <Router hook={hook}>
      <ProxyWizardPage />
    </Router>,
    { lang, queryClient },
  );
}

describe('wizard title', () => {
  it.each([
    ['en', 'New reverse proxy'],
    ['es', 'Nuevo proxy inverso'],
  ] as const)('is "%s" for a new proxy', async (lang, title) => {
    await openWizard('/proxy-wizard', null, lang);
    expect(screen.getByTestId('wizard-title').textContent).toBe(title);
  });

  it.each([
    ['en', 'Reverse proxy for shop.example.com'],
    ['es', 'Proxy inverso para shop.example.com'],
  ] as const)('names the proxy being resumed (%s)', async (lang, title) => {
    await openWizard(`/proxy-wizard?continueId=${id}`, saved, lang);
    expect((await screen.findByTestId('wizard-title')).textContent).toBe(title);
  });
});

describe('sidebar deploy action', () => {
  it('offers "Deploy again" for a proxy deployed before', async () => {
    await openWizard(`/proxy-wizard?continueId=${id}`, saved, 'en');
    expect((await screen.findByTestId('wizard-action-redeploy')).textContent).toBe('Deploy again');
  });

  it('offers to go to the deployment, not "again", for one never deployed', async () => {
    const never = {
      ...saved,
      status: 'pending',
      sslConfigured: false,
      lastDeployedAt: null,
    } as const;
    await openWizard(`/proxy-wizard?continueId=${id}`, never, 'en');
    // Resumed at the deploy step; back to the server info, the sidebar offers the deployment.
    await act(async () => {
      fireEvent.click(await screen.findByTestId('wizard-action-edit'));
    });
    expect(screen.getByTestId('wizard-action-redeploy').textContent).toBe('Go to deployment');
    expect(screen.getByTestId('wizard-title').textContent).toBe(
      'Reverse proxy for shop.example.com',
    );
  });

  it.each(['en', 'es'] as const)(
    'offers no deployment while the SSH password must be entered again (%s)',
    async (lang) => {
      // The owner or an admin changed the server, port or user: the saved password was cleared.
      await openWizard(`/proxy-wizard?continueId=${id}`, { ...saved, hasSshPassword: false }, lang);
      // Resumed at the server info, which asks for the password; the sidebar only offers editing.
      expect(await screen.findByDisplayValue('shop.example.com')).toBeTruthy();
      expect(screen.getByTestId('wizard-sidebar-target').textContent).toBe(saved.targetServer);
      expect(screen.queryByTestId('wizard-action-redeploy')).toBeNull();
    },
  );
});

const WORDS = {
  en: { verified: 'Verified', failed: 'Failed' },
  es: { verified: 'Verificado', failed: 'Fallido' },
} as const;
const steps = () => screen.getAllByRole('listitem').map((li) => li.dataset.status);
const row = (name: 'dns' | 'ssh') => screen.getByTestId(`wizard-sidebar-${name}`);

// Before: the step bar checked the first three steps while the sidebar said "Waiting", and a
// run that failed on DNS left the sidebar saying "Verified".
describe.each(['en', 'es'] as const)('the step bar and the sidebar agree (%s)', (lang) => {
  it('a resumed proxy: the steps behind are done, and so are its checks', async () => {
    await openWizard(`/proxy-wizard?continueId=${id}`, { ...saved, status: 'pending' }, lang);
    await screen.findByTestId('wizard-deploy-status');
    expect(steps().slice(0, 5)).toEqual([
      'completed',
      'completed',
      'completed',
      'current',
      'pending',
    ]);
    for (const name of ['dns', 'ssh'] as const) {
      expect(row(name).dataset.tone).toBe('ok');
      expect(row(name).textContent).toContain(WORDS[lang].verified);
    }
  });

  it('a proxy whose last run failed on DNS: neither says the DNS was verified', async () => {
    const failed = {
      ...saved,
      status: 'failed',
      lastFailure: {
        deploymentId: '00000000-0000-4000-8000-0000000000d1',
        code: 'dns_mismatch',
        step: 'preflight',
        message: 'app points elsewhere',
        text: null,
        at: '2026-01-05T07:08:09.000Z',
      },
    } as const;
    await openWizard(`/proxy-wizard?continueId=${id}`, failed, lang);
    await screen.findByTestId('wizard-deploy-status');
    expect(steps().slice(0, 5)).toEqual(['completed', 'failed', 'completed', 'current', 'pending']);
    expect(screen.getByTestId('wizard-progress-dns-validation').textContent).toContain(
      lang === 'en' ? '(failed)' : '(fallido)',
    );
    expect(row('dns').dataset.tone).toBe('failed');
    expect(row('dns').textContent).toContain(WORDS[lang].failed);
    expect(row('dns').textContent).not.toContain(WORDS[lang].verified);
    // The run got past the SSH login before it looked at the DNS.
    expect(row('ssh').dataset.tone).toBe('ok');
  });
});
