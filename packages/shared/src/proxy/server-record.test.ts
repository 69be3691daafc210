import { describe, expect, it } from 'vitest';
import { servingOf, siteHasTraces, type TServerSite } from './server-record';

const site: TServerSite = {
  serverIp: '198.51.100.7',
  sshPort: 22,
  sshUser: 'root',
  hostKeyFingerprint: null,
  domain: 'app.example.com',
  files: ['/etc/nginx/sites-available/proxy-app.example.com'],
  enabled: true,
  https: true,
  certificate: null,
  unconfirmed: false,
  checkedAt: '2026-12-06T00:00:00.000Z',
};
const uploaded = {
  path: '/etc/portico/certificates/app.example.com/0123456789abcdef/fullchain.pem',
  fingerprint: 'AB:CD',
  expiresAt: '2027-01-01T00:00:00.000Z',
};

describe('the record of an uploaded certificate (issue 41)', () => {
  it('an HTTPS site serving an upload, without certbot’s certificate, is served over HTTPS', () => {
    expect(servingOf([{ ...site, uploaded }], false)).toBe('https');
    expect(servingOf([site], false)).toBe('http');
  });

  it('an upload left on the server is a trace a removal takes, even with no site file left', () => {
    const left = { ...site, files: [], enabled: false, https: false };
    expect(siteHasTraces({ ...left, uploaded })).toBe(true);
    expect(siteHasTraces(left)).toBe(false);
    expect(siteHasTraces({ ...left, uploaded: null })).toBe(false);
  });
});
