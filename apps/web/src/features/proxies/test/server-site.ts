import type { TServerSite } from '@portico/shared/proxy/api';

/** A site as a completed run records it: enabled HTTPS site and its certificate. */
export const SERVER_SITE: TServerSite = {
  serverIp: '198.51.100.7',
  sshPort: 22,
  sshUser: 'root',
  hostKeyFingerprint: null,
  domain: 'app.example.com',
  files: [
    '/etc/nginx/sites-available/proxy-app.example.com',
    '/etc/nginx/sites-enabled/proxy-app.example.com',
  ],
  enabled: true,
  https: true,
  certificate: { name: 'app.example.com', expiresAt: '2027-02-01T10:00:00.000Z' },
  unconfirmed: false,
  checkedAt: '2026-11-22T16:00:00.000Z',
};
