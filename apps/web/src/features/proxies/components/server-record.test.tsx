import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aProxy, SCRIPT_FAILURE, SERVER_SITE } from '@/test/proxy';
import { renderWithProviders } from '@/test/render';
import { ServerRecord } from './server-record';

const SITE = SERVER_SITE;

// A run that failed at its custom script, after the HTTPS site and the certificate were written.
const proxy = aProxy({
  domain: 'app.example.com',
  lastDeployedAt: null,
  serverSites: [SITE],
  lastFailure: SCRIPT_FAILURE,
});

describe('"On the server" (what a removal removes)', () => {
  it('shows the files, that nginx loads them, HTTPS and the certificate (en); the failure is the summary’s', async () => {
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
    // Its name; how long it is valid is said once, by the certificate section.
    expect(screen.getByTestId('server-site-certificate').textContent).toBe('app.example.com');
    expect(screen.getByTestId('server-last-success').textContent).toBe('Never');
    expect(screen.queryByTestId('last-failure')).toBeNull();
    expect(screen.queryByTestId('server-site-unconfirmed')).toBeNull();
  });

  it('in Spanish, and says when a cut run left the record unconfirmed', async () => {
    const cut = { ...proxy, serverSites: [{ ...SITE, https: false, unconfirmed: true }] };
    await renderWithProviders(<ServerRecord proxy={cut} />, { lang: 'es' });
    expect(screen.getByTestId('server-site-https').textContent).toContain('Solo HTTP');
    expect(screen.getByTestId('server-site-certificate').textContent).toBe('app.example.com');
    expect(screen.getByTestId('server-site-unconfirmed').textContent).toContain(
      'pueden estar o no',
    );
  });

  it('an uploaded certificate: its chain file on the server, in both languages', async () => {
    const path = '/etc/portico/certificates/app.example.com/0123456789abcdef/fullchain.pem';
    const uploaded = { path, fingerprint: 'AB:CD', expiresAt: '2027-01-01T00:00:00.000Z' };
    const own = { ...proxy, serverSites: [{ ...SITE, certificate: null, uploaded }] };
    await renderWithProviders(<ServerRecord proxy={own} />, { lang: 'en' });
    const en = (await screen.findByTestId('server-site-uploaded')).textContent;
    expect(en).toBe(`Uploaded: you renew it${path}`);
    expect(screen.getByTestId('server-site-certificate').textContent).not.toContain('None');
  });

  it('un certificado subido, en español', async () => {
    const path = '/etc/portico/certificates/app.example.com/0123456789abcdef/fullchain.pem';
    const uploaded = { path, fingerprint: null, expiresAt: null };
    const own = { ...proxy, serverSites: [{ ...SITE, uploaded }] };
    await renderWithProviders(<ServerRecord proxy={own} />, { lang: 'es' });
    const es = (await screen.findByTestId('server-site-uploaded')).textContent;
    expect(es).toContain(path);
    expect(es).toContain('Subido');
    // certbot's certificate still there is listed beside it.
    expect(screen.getByTestId('server-site-certificate').textContent).toContain('app.example.com');
  });

  it('says when Portico has written nothing to a server', async () => {
    const fresh = { ...proxy, serverSites: [], lastFailure: null };
    await renderWithProviders(<ServerRecord proxy={fresh} />, { lang: 'en' });
    expect(screen.getByTestId('server-record-empty').textContent).toBe(
      'Portico has not written anything to a server for this proxy.',
    );
  });
});
