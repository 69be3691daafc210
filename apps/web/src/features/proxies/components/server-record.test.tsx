import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aProxy, SERVER_SITE } from '@/test/proxy';
import { renderWithProviders } from '@/test/render';
import { ServerRecord } from './server-record';

const SITE = SERVER_SITE;

// A run that failed at its custom script, after the HTTPS site and the certificate were written.
const proxy = aProxy({
  domain: 'app.example.com',
  lastDeployedAt: null,
  serverSites: [SITE],
  lastFailure: {
    deploymentId: 'd1',
    code: 'custom_script_failed',
    step: 'custom-script',
    message: 'El script personalizado terminó con el estado 3. Su última salida:\nboom',
    text: {
      join: [{ key: 'deployLog.script.exited', params: { code: '3' } }, 'boom'],
      sep: '\n',
    },
    at: '2026-11-22T16:05:00.000Z',
  },
});

describe('"On the server" (what a removal removes)', () => {
  it('shows the files, that nginx loads them, HTTPS, the certificate and the failure beside (en)', async () => {
    await renderWithProviders(<ServerRecord proxy={proxy} />, { lang: 'en' });
    const site = screen.getByTestId('server-site');
    expect(site.getAttribute('data-domain')).toBe('app.example.com');
    expect(screen.getByTestId('server-site-where').textContent).toBe('root@198.51.100.7:22');
    const files = screen.getByTestId('server-site-files').textContent!;
    expect(files).toContain('/etc/nginx/sites-available/proxy-app.example.com');
    expect(files).toContain('/etc/nginx/sites-enabled/proxy-app.example.com');
    expect(screen.getByTestId('server-site-enabled').textContent).toBe(
      'Enabled: nginx loads the site',
    );
    expect(screen.getByTestId('server-site-https').textContent).toContain('serves HTTPS');
    expect(screen.getByTestId('server-site-certificate').textContent).toMatch(
      /^app\.example\.com, expires Feb 1, 2027 \(/,
    );
    expect(screen.getByTestId('server-last-success').textContent).toBe('Never');
    const failure = screen.getByTestId('last-failure');
    expect(failure.textContent).toContain('Last run failed');
    expect(failure.textContent).toContain('At step “custom script”');
    // Stored from a Spanish run, read on an English screen.
    expect(screen.getByTestId('last-failure-message').textContent).toBe(
      'The custom script exited with status 3. Its last output:\nboom',
    );
    expect(screen.queryByTestId('server-site-unconfirmed')).toBeNull();
  });

  it('in Spanish, and says when a cut run left the record unconfirmed', async () => {
    const cut = { ...proxy, serverSites: [{ ...SITE, https: false, unconfirmed: true }] };
    await renderWithProviders(<ServerRecord proxy={cut} />, { lang: 'es' });
    expect(screen.getByTestId('server-site-https').textContent).toContain('Solo HTTP');
    expect(screen.getByTestId('server-site-certificate').textContent).toMatch(
      /^app\.example\.com, caduca el 1 feb 2027/,
    );
    expect(screen.getByTestId('server-site-unconfirmed').textContent).toContain(
      'pueden estar o no',
    );
    expect(screen.getByTestId('last-failure').textContent).toContain(
      'En el paso «script personalizado»',
    );
    expect(screen.getByTestId('last-failure-message').textContent).toMatch(
      /^El script personalizado terminó con el código 3/,
    );
  });

  it('says when Portico has written nothing to a server', async () => {
    const fresh = { ...proxy, serverSites: [], lastFailure: null };
    await renderWithProviders(<ServerRecord proxy={fresh} />, { lang: 'en' });
    expect(screen.getByTestId('server-record-empty').textContent).toBe(
      'Portico has not written anything to a server for this proxy.',
    );
    expect(screen.queryByTestId('last-failure')).toBeNull();
  });
});
