import type { TLastFailure, TProxyConfiguration, TServerSite } from '@portico/shared/proxy/api';

/** A configuration as the API answers it, for component tests; override what the test is about. */
export function aProxy(overrides: Partial<TProxyConfiguration> = {}): TProxyConfiguration {
  return {
    id: '00000000-0000-4000-8000-000000000009',
    userId: 'u1',
    domain: 'app.example.com',
    serverIp: '203.0.113.10',
    sshPort: 22,
    sshUser: 'root',
    hasSshPassword: true,
    sshServerId: null,
    sshAuth: 'password',
    email: 'admin@example.com',
    targetServer: 'http://10.0.0.5:8080',
    options: {},
    status: 'pending',
    sslConfigured: false,
    nginxConfigPath: null,
    hostKeyFingerprint: null,
    certificateExpiresAt: null,
    lastDeployedAt: null,
    changedSinceDeploy: false,
    serverSites: [],
    lastFailure: null,
    customScriptName: null,
    createdAt: '2026-01-05T07:08:09.000Z',
    updatedAt: '2026-01-05T07:08:09.000Z',
    ...overrides,
  };
}

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

/** A run that failed at its custom script (stored from a Spanish run). */
export const SCRIPT_FAILURE: TLastFailure = {
  deploymentId: 'd1',
  code: 'custom_script_failed',
  step: 'custom-script',
  message: 'El script personalizado terminó con el estado 3. Su última salida:\nboom',
  text: {
    join: [{ key: 'deployLog.script.exited', params: { code: '3' } }, 'boom'],
    sep: '\n',
  },
  at: '2026-11-22T16:05:00.000Z',
};
