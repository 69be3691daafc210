// What each matrix cell sends: a valid request aimed at the owner's resources, so only who
// sends it decides the answer (the body passes validation, the CSRF token is the sender's own).
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { proxyInput } from '../support/proxies-test-helpers';
import { newCredentials } from '../support/test-client';
import { createTestPki } from '../support/test-pki';
import { routeKey } from './authorization-table';
import { LOCAL_SERVER, MATRIX_PASSWORD, send, type TMatrixWorld } from './authorization-world';

export interface TCell {
  url: string;
  payload?: InjectOptions['payload'];
  headers?: Record<string, string>;
  /** Run in a new session of the actor: the request replaces or ends the session it runs in. */
  freshSession?: boolean;
}

type TBuild = (w: TMatrixWorld) => TCell | Promise<TCell>;

/** One script file as a browser's multipart form sends it. */
function scriptForm(): TCell['payload'] & { type: string } {
  const boundary = `----matrix${randomBytes(6).toString('hex')}`;
  const body = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="script"; filename="setup.sh"\r\n` +
      `Content-Type: application/x-sh\r\n\r\n#!/bin/sh\necho ok\n\r\n--${boundary}--\r\n`,
  );
  return Object.assign(body, { type: `multipart/form-data; boundary=${boundary}` });
}

/** A valid upload of your own certificate for `domain`, from a throwaway test CA. */
const DNS_CREDENTIALS = { provider: 'cloudflare', apiToken: 'authorization-matrix-token-0123' };

/**
 * A wildcard proxy of the owner's served by DNS-01 (its certificate valid 60 more days) and a
 * proxy under it on the same server, each cell's own: their ids.
 */
async function wildcardPair(w: TMatrixWorld): Promise<{ holderId: string; userId: string }> {
  const base = `wild-${randomBytes(4).toString('hex')}.example.com`;
  const create = async (domain: string) => {
    const input = proxyInput({ ...LOCAL_SERVER, domain });
    const made = await w.clients.owner.write('POST', '/api/proxy-configurations', input as never);
    if (made.statusCode !== 200) throw new Error(`proxy: ${made.body}`);
    return made.json().id as string;
  };
  const holderId = await create(`*.${base}`);
  const dns = await w.clients.owner.write(
    'PUT',
    `/api/proxy-configurations/${holderId}/certificate/dns`,
    { credentials: DNS_CREDENTIALS } as never,
  );
  if (dns.statusCode !== 200) throw new Error(`DNS challenge: ${dns.body}`);
  await w.t.database.db.execute(
    sql`update proxy_configurations set status = 'completed', ssl_configured = true,
        certificate_expires_at = now() + interval '60 days' where id = ${holderId}`,
  );
  return { holderId, userId: await create(`c.${base}`) };
}

function customCertificateFor(domain: string) {
  const pki = createTestPki();
  try {
    const now = Date.now();
    const leaf = pki.leaf({
      names: [domain],
      from: new Date(now - 60_000),
      to: new Date(now + 30 * 24 * 3_600_000),
    });
    return { certificate: leaf.cert, privateKey: leaf.key };
  } finally {
    pki.remove();
  }
}

function editBody(w: TMatrixWorld) {
  return {
    domain: w.proxy.domain,
    targetServer: 'http://10.0.0.5:8080',
    serverIp: LOCAL_SERVER.serverIp,
    sshUser: 'root',
    sshPort: LOCAL_SERVER.sshPort,
  };
}

const fixed =
  (url: string): TBuild =>
  () => ({ url });

const CELLS: Record<string, TBuild> = {
  [routeKey('GET', '/healthz')]: fixed('/healthz'),
  [routeKey('GET', '/readyz')]: fixed('/readyz'),
  [routeKey('GET', '/api/openapi.json')]: fixed('/api/openapi.json'),
  [routeKey('GET', '/api/docs')]: fixed('/api/docs'),
  [routeKey('HEAD', '/api/docs/')]: fixed('/api/docs/'),
  [routeKey('GET', '/api/docs/json')]: fixed('/api/docs/json'),
  [routeKey('GET', '/api/docs/yaml')]: fixed('/api/docs/yaml'),
  [routeKey('GET', '/api/docs/static/index.html')]: fixed('/api/docs/static/index.html'),
  [routeKey('GET', '/api/docs/static/swagger-initializer.js')]: fixed(
    '/api/docs/static/swagger-initializer.js',
  ),
  [routeKey('GET', '/api/docs/static/*')]: fixed('/api/docs/static/swagger-ui.css'),

  [routeKey('GET', '/api/csrf-token')]: fixed('/api/csrf-token'),
  [routeKey('GET', '/api/auth/options')]: fixed('/api/auth/options'),
  [routeKey('POST', '/api/register')]: () => ({
    url: '/api/register',
    payload: newCredentials('matrix'),
    freshSession: true,
  }),
  [routeKey('POST', '/api/login')]: (w) => ({
    url: '/api/login',
    payload: { identifier: w.loginTarget, password: newCredentials().password },
    freshSession: true,
  }),
  [routeKey('POST', '/api/login/two-factor')]: () => ({
    url: '/api/login/two-factor',
    payload: { code: '123456' },
    freshSession: true,
  }),
  [routeKey('POST', '/api/logout')]: () => ({ url: '/api/logout', freshSession: true }),
  [routeKey('GET', '/api/auth/user')]: fixed('/api/auth/user'),

  [routeKey('PUT', '/api/account/profile')]: () => ({
    url: '/api/account/profile',
    payload: { firstName: 'Matrix', lastName: `Cell ${randomBytes(3).toString('hex')}` },
  }),
  [routeKey('PUT', '/api/account/email')]: () => ({
    url: '/api/account/email',
    payload: {
      email: `matrix-${randomBytes(4).toString('hex')}@example.test`,
      currentPassword: MATRIX_PASSWORD,
    },
  }),
  // The same password again: every later cell still signs in with it, and the tokens kept
  // (the matrix's token callers use them after).
  [routeKey('PUT', '/api/account/password')]: () => ({
    url: '/api/account/password',
    payload: {
      currentPassword: MATRIX_PASSWORD,
      newPassword: MATRIX_PASSWORD,
      revokeTokens: false,
    },
  }),
  [routeKey('GET', '/api/account/two-factor')]: fixed('/api/account/two-factor'),
  [routeKey('POST', '/api/account/two-factor/setup')]: fixed('/api/account/two-factor/setup'),
  [routeKey('POST', '/api/account/two-factor/confirm')]: () => ({
    url: '/api/account/two-factor/confirm',
    payload: { code: '000000' },
  }),
  [routeKey('POST', '/api/account/two-factor/disable')]: () => ({
    url: '/api/account/two-factor/disable',
    payload: { password: MATRIX_PASSWORD },
  }),
  [routeKey('POST', '/api/account/two-factor/recovery-codes')]: () => ({
    url: '/api/account/two-factor/recovery-codes',
    payload: { password: MATRIX_PASSWORD },
  }),
  [routeKey('GET', '/api/account/tokens')]: fixed('/api/account/tokens'),
  [routeKey('POST', '/api/account/tokens')]: () => ({
    url: '/api/account/tokens',
    payload: { name: 'matrix', scope: 'read', expiresInDays: 1, password: MATRIX_PASSWORD },
  }),
  [routeKey('DELETE', '/api/account/tokens/:id')]: async (w) => ({
    url: `/api/account/tokens/${await w.freshOwnerToken()}`,
  }),
  [routeKey('POST', '/api/account/export')]: () => ({ url: '/api/account/export', payload: {} }),
  [routeKey('POST', '/api/account/import')]: () => ({
    url: '/api/account/import',
    payload: {
      document: {
        format: 'portico-export',
        version: 1,
        exportedAt: '2031-01-01T00:00:00.000Z',
        sealing: null,
        servers: [],
        proxies: [],
      },
    },
  }),
  [routeKey('GET', '/api/account/sessions')]: fixed('/api/account/sessions'),
  [routeKey('DELETE', '/api/account/sessions/:id')]: async (w) => ({
    url: `/api/account/sessions/${await w.freshOwnerSession()}`,
  }),
  [routeKey('POST', '/api/account/sessions/end-others')]: fixed('/api/account/sessions/end-others'),
  [routeKey('GET', '/api/account/notifications')]: fixed('/api/account/notifications'),
  [routeKey('PUT', '/api/account/notifications')]: () => ({
    url: '/api/account/notifications',
    payload: { emailEnabled: false },
  }),
  [routeKey('POST', '/api/account/notifications/test')]: fixed('/api/account/notifications/test'),
  [routeKey('POST', '/api/account/notifications/email/code')]: fixed(
    '/api/account/notifications/email/code',
  ),
  [routeKey('POST', '/api/account/notifications/email/verify')]: () => ({
    url: '/api/account/notifications/email/verify',
    payload: { code: '123456' },
  }),
  [routeKey('PUT', '/api/account/language')]: () => ({
    url: '/api/account/language',
    payload: { language: 'en' },
  }),

  [routeKey('POST', '/api/validate-dns')]: (w) => ({
    url: '/api/validate-dns',
    payload: { domain: w.proxy.domain, serverIp: LOCAL_SERVER.serverIp },
  }),
  // No password: the stored one of the owner's configuration would be used.
  [routeKey('POST', '/api/test-ssh')]: (w) => ({
    url: '/api/test-ssh',
    payload: {
      serverIp: LOCAL_SERVER.serverIp,
      port: LOCAL_SERVER.sshPort,
      username: 'root',
      configurationId: w.proxy.id,
    },
  }),
  [routeKey('POST', '/api/upload-script')]: (w) => {
    const form = scriptForm();
    return {
      url: `/api/upload-script?configurationId=${w.proxy.id}`,
      payload: form,
      headers: { 'content-type': form.type },
    };
  },
  [routeKey('POST', '/api/check-duplicate-configuration')]: (w) => ({
    url: '/api/check-duplicate-configuration',
    payload: { domain: w.proxy.domain, serverIp: LOCAL_SERVER.serverIp },
  }),

  // Resuming the owner's configuration: would overwrite its password if it let anyone through.
  [routeKey('POST', '/api/proxy-configurations')]: (w) => ({
    url: '/api/proxy-configurations',
    payload: proxyInput({ ...LOCAL_SERVER, domain: w.proxy.domain, configurationId: w.proxy.id }),
  }),
  [routeKey('GET', '/api/proxy-configurations/:id')]: (w) => ({
    url: `/api/proxy-configurations/${w.proxy.id}`,
  }),
  [routeKey('GET', '/api/user/proxy-configurations')]: fixed('/api/user/proxy-configurations'),
  [routeKey('PUT', '/api/user/proxy-configurations/:id')]: (w) => ({
    url: `/api/user/proxy-configurations/${w.proxy.id}`,
    payload: editBody(w),
  }),
  [routeKey('PATCH', '/api/proxy-configurations/:id/reset')]: (w) => ({
    url: `/api/proxy-configurations/${w.proxy.id}/reset`,
  }),
  [routeKey('DELETE', '/api/proxy-configurations/:id/host-key')]: (w) => ({
    url: `/api/proxy-configurations/${w.proxy.id}/host-key`,
  }),
  [routeKey('DELETE', '/api/proxy-configurations/:id')]: async (w) => ({
    url: `/api/proxy-configurations/${await w.freshProxy()}`,
  }),

  [routeKey('POST', '/api/deploy/:configurationId')]: async (w) => ({
    url: `/api/deploy/${await w.freshProxy()}`,
  }),
  [routeKey('POST', '/api/proxy-configurations/:id/redeploy')]: async (w) => ({
    url: `/api/proxy-configurations/${await w.freshProxy()}/redeploy`,
  }),
  [routeKey('POST', '/api/proxy-configurations/:id/plan')]: (w) => ({
    url: `/api/proxy-configurations/${w.proxy.id}/plan`,
    payload: {},
  }),
  [routeKey('POST', '/api/proxy-configurations/:id/apply')]: async (w) => ({
    url: `/api/proxy-configurations/${await w.freshProxy()}/apply`,
    payload: { fingerprint: `v1:${'0'.repeat(64)}` },
  }),
  [routeKey('POST', '/api/proxy-configurations/:id/convert/plan')]: (w) => ({
    url: `/api/proxy-configurations/${w.proxy.id}/convert/plan`,
  }),
  [routeKey('POST', '/api/proxy-configurations/:id/convert')]: (w) => ({
    url: `/api/proxy-configurations/${w.proxy.id}/convert`,
    payload: { fingerprint: `v1:${'0'.repeat(64)}` },
  }),
  [routeKey('GET', '/api/deployment-logs/:id')]: (w) => ({
    url: `/api/deployment-logs/${w.proxy.id}`,
  }),
  [routeKey('GET', '/ws')]: (w) => ({ url: `/ws?configId=${w.proxy.id}` }),

  [routeKey('GET', '/api/certificates')]: fixed('/api/certificates'),
  [routeKey('GET', '/api/proxy-configurations/:id/certificate')]: (w) => ({
    url: `/api/proxy-configurations/${w.proxy.id}/certificate`,
  }),
  [routeKey('POST', '/api/proxy-configurations/:id/certificate/check')]: async (w) => ({
    url: `/api/proxy-configurations/${await w.freshDeployedProxy()}/certificate/check`,
  }),
  [routeKey('POST', '/api/proxy-configurations/:id/certificate/renew-test')]: async (w) => ({
    url: `/api/proxy-configurations/${await w.freshDeployedProxy()}/certificate/renew-test`,
  }),
  [routeKey('POST', '/api/proxy-configurations/:id/certificate/renew')]: async (w) => ({
    url: `/api/proxy-configurations/${await w.freshDeployedProxy()}/certificate/renew`,
  }),
  [routeKey('PUT', '/api/proxy-configurations/:id/certificate/custom')]: (w) => ({
    url: `/api/proxy-configurations/${w.proxy.id}/certificate/custom`,
    payload: customCertificateFor(w.proxy.domain),
  }),
  [routeKey('DELETE', '/api/proxy-configurations/:id/certificate/custom')]: async (w) => {
    // A proxy of the owner's with an upload of its own: each cell has one to remove.
    const id = await w.freshProxy();
    const read = await w.clients.owner.request({
      method: 'GET',
      url: `/api/proxy-configurations/${id}`,
    });
    const { domain } = read.json() as { domain: string };
    const uploaded = await w.clients.owner.write(
      'PUT',
      `/api/proxy-configurations/${id}/certificate/custom`,
      customCertificateFor(domain) as never,
    );
    if (uploaded.statusCode !== 200) throw new Error(`upload: ${uploaded.body}`);
    return { url: `/api/proxy-configurations/${id}/certificate/custom` };
  },
  [routeKey('GET', '/api/proxy-configurations/:id/certificate/dns')]: (w) => ({
    url: `/api/proxy-configurations/${w.proxy.id}/certificate/dns`,
  }),
  [routeKey('PUT', '/api/proxy-configurations/:id/certificate/dns')]: (w) => ({
    url: `/api/proxy-configurations/${w.proxy.id}/certificate/dns`,
    payload: { credentials: DNS_CREDENTIALS },
  }),
  [routeKey('DELETE', '/api/proxy-configurations/:id/certificate/dns')]: async (w) => {
    // A proxy of the owner's with a DNS challenge of its own: each cell has one to remove.
    const id = await w.freshProxy();
    const url = `/api/proxy-configurations/${id}/certificate/dns`;
    const set = await w.clients.owner.write('PUT', url, {
      credentials: DNS_CREDENTIALS,
    } as never);
    if (set.statusCode !== 200) throw new Error(`DNS challenge: ${set.body}`);
    return { url };
  },
  [routeKey('GET', '/api/certificates/wildcards')]: fixed(
    '/api/certificates/wildcards?domain=c.example.com&serverIp=127.0.0.1',
  ),
  [routeKey('GET', '/api/proxy-configurations/:id/certificate/wildcards')]: (w) => ({
    url: `/api/proxy-configurations/${w.proxy.id}/certificate/wildcards`,
  }),
  [routeKey('PUT', '/api/proxy-configurations/:id/certificate/wildcard')]: async (w) => {
    const { holderId, userId } = await wildcardPair(w);
    return {
      url: `/api/proxy-configurations/${userId}/certificate/wildcard`,
      payload: { holderId },
    };
  },
  [routeKey('DELETE', '/api/proxy-configurations/:id/certificate/wildcard')]: async (w) => {
    // A proxy of the owner's served with a wildcard of its server: each cell has one to stop.
    const { holderId, userId } = await wildcardPair(w);
    const url = `/api/proxy-configurations/${userId}/certificate/wildcard`;
    const used = await w.clients.owner.write('PUT', url, { holderId } as never);
    if (used.statusCode !== 200) throw new Error(`wildcard: ${used.body}`);
    return { url };
  },
  [routeKey('GET', '/api/admin/certificates')]: fixed('/api/admin/certificates'),
  [routeKey('GET', '/api/admin/backups/status')]: fixed('/api/admin/backups/status'),

  [routeKey('GET', '/api/destination-servers')]: fixed('/api/destination-servers'),
  [routeKey('POST', '/api/admin/destination-servers')]: () => ({
    url: '/api/admin/destination-servers',
    payload: { name: `Matrix new ${randomBytes(3).toString('hex')}`, endpoint: '10.0.0.9' },
  }),
  [routeKey('PUT', '/api/admin/destination-servers/:id')]: (w) => ({
    url: `/api/admin/destination-servers/${w.destinationId}`,
    payload: { description: `edited ${randomBytes(3).toString('hex')}` },
  }),
  [routeKey('DELETE', '/api/admin/destination-servers/:id')]: async (w) => ({
    url: `/api/admin/destination-servers/${await w.freshDestination()}`,
  }),

  [routeKey('GET', '/api/ssh-servers')]: fixed('/api/ssh-servers'),
  [routeKey('POST', '/api/ssh-servers')]: () => ({
    url: '/api/ssh-servers',
    payload: {
      name: `Matrix new server ${randomBytes(3).toString('hex')}`,
      host: '203.0.113.31',
      authKind: 'key',
      generateKey: true,
    },
  }),
  [routeKey('GET', '/api/ssh-servers/:id')]: (w) => ({ url: `/api/ssh-servers/${w.sshServerId}` }),
  [routeKey('PATCH', '/api/ssh-servers/:id')]: (w) => ({
    url: `/api/ssh-servers/${w.sshServerId}`,
    payload: { description: `edited ${randomBytes(3).toString('hex')}` },
  }),
  [routeKey('DELETE', '/api/ssh-servers/:id')]: async (w) => ({
    url: `/api/ssh-servers/${await w.freshSshServer()}`,
  }),
  [routeKey('POST', '/api/ssh-servers/:id/check')]: (w) => ({
    url: `/api/ssh-servers/${w.localSshServerId}/check`,
  }),
  [routeKey('POST', '/api/ssh-servers/:id/scan')]: (w) => ({
    url: `/api/ssh-servers/${w.localSshServerId}/scan`,
  }),
  [routeKey('POST', '/api/ssh-servers/:id/adopt')]: (w) => ({
    url: `/api/ssh-servers/${w.localSshServerId}/adopt`,
    payload: { serverName: 'app.example.test' },
  }),
  [routeKey('POST', '/api/ssh-servers/:id/forget-host-key')]: (w) => ({
    url: `/api/ssh-servers/${w.sshServerId}/forget-host-key`,
  }),
  // A server of its own each: one unfinished run per server would answer the next cell 409.
  [routeKey('POST', '/api/ssh-servers/:id/redeploy-all')]: async (w) => ({
    url: `/api/ssh-servers/${await w.freshSshServer()}/redeploy-all`,
  }),
  [routeKey('POST', '/api/ssh-servers/:id/check-certificates')]: async (w) => ({
    url: `/api/ssh-servers/${await w.freshSshServer()}/check-certificates`,
  }),
  [routeKey('GET', '/api/ssh-servers/:id/runs/latest')]: (w) => ({
    url: `/api/ssh-servers/${w.sshServerId}/runs/latest`,
  }),
  [routeKey('GET', '/api/ssh-servers/:id/runs/:runId')]: async (w) => {
    const serverId = await w.freshSshServer();
    const started = await send(w.clients.owner, {
      method: 'POST',
      url: `/api/ssh-servers/${serverId}/check-certificates`,
    });
    return { url: `/api/ssh-servers/${serverId}/runs/${started.json().id}` };
  },
  [routeKey('POST', '/api/ssh-servers/:id/delete-with-sites')]: async (w) => ({
    url: `/api/ssh-servers/${await w.freshSshServer()}/delete-with-sites`,
    payload: {},
  }),

  [routeKey('GET', '/api/admin/stats/users')]: fixed('/api/admin/stats/users'),
  [routeKey('GET', '/api/admin/stats/proxies-by-user')]: fixed('/api/admin/stats/proxies-by-user'),
  [routeKey('GET', '/api/admin/all-proxies')]: fixed('/api/admin/all-proxies'),
  [routeKey('PUT', '/api/admin/proxy-configurations/:id')]: (w) => ({
    url: `/api/admin/proxy-configurations/${w.proxy.id}`,
    payload: editBody(w),
  }),
  [routeKey('GET', '/api/admin/audit-log')]: fixed('/api/admin/audit-log'),
  [routeKey('GET', '/api/admin/users')]: fixed('/api/admin/users'),
  [routeKey('PATCH', '/api/admin/users/:id/role')]: (w) => ({
    url: `/api/admin/users/${w.roleTargetId}/role`,
    payload: { role: 'user' },
  }),
  [routeKey('GET', '/api/admin/users/:id/limits')]: (w) => ({
    url: `/api/admin/users/${w.roleTargetId}/limits`,
  }),
  [routeKey('PUT', '/api/admin/users/:id/limits')]: (w) => ({
    url: `/api/admin/users/${w.roleTargetId}/limits`,
    payload: { proxies: 1000 },
  }),
};

export function cellRequest(method: string, url: string, w: TMatrixWorld): Promise<TCell> {
  const build = CELLS[routeKey(method, url)];
  if (!build) throw new Error(`no request written for ${routeKey(method, url)}`);
  return Promise.resolve(build(w));
}

export const routesWithRequests = () => Object.keys(CELLS);
