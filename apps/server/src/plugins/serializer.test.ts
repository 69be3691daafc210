import { ZAuditPage } from '@portico/shared/admin/api';
import {
  type TProxyConfiguration,
  ZDeploymentLogEntry,
  ZProxyConfiguration,
} from '@portico/shared/proxy/api';
import type { FastifySchema } from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { responseSerializer } from './serializer';

const proxy: TProxyConfiguration = {
  id: '3e68844e-cc1c-4b52-904e-6eb946862fc9',
  userId: '8c928300-978b-4a55-9d0b-0e6c2d3a1f00',
  domain: 'app.example.com',
  serverIp: '203.0.113.7',
  sshPort: 22,
  sshUser: 'root',
  hasSshPassword: true,
  sshServerId: null,
  sshAuth: 'password',
  email: 'ops@example.com',
  targetServer: 'http://10.0.0.5:8080',
  options: {},
  status: 'completed',
  sslConfigured: true,
  nginxConfigPath: null,
  hostKeyFingerprint: 'SHA256:q3PnJ7bYkU0bM3o7tqQ3QzZpVqg4o8l8F0c3r9i2XkE',
  certificateExpiresAt: '2027-02-01T10:00:00.000Z',
  lastDeployedAt: null,
  changedSinceDeploy: false,
  serverSites: [
    {
      serverIp: '203.0.113.7',
      sshPort: 22,
      sshUser: 'root',
      hostKeyFingerprint: null,
      domain: 'app.example.com',
      files: ['/etc/nginx/sites-available/app.example.com.conf'],
      enabled: true,
      https: true,
      certificate: { name: 'app.example.com', expiresAt: null },
      unconfirmed: false,
      checkedAt: '2026-11-24T04:23:16.123Z',
    },
  ],
  lastFailure: {
    deploymentId: null,
    code: 'nginx_test_failed',
    step: 'certificate',
    message: 'nginx -t said "no"',
    text: { key: 'deploy.failed', params: { tool: 'nginx', at: { date: '2026-11-24' } } },
    at: '2026-11-24T04:23:16.123Z',
  },
  customScriptName: 'say "hi" \\ é.sh',
  createdAt: '2026-11-24T04:23:16.123Z',
  updatedAt: '2026-11-24T04:23:16.123Z',
};

function compile(schema: z.ZodType, validate = false) {
  return responseSerializer({ validate })({
    schema,
    method: 'GET',
    url: '/x',
    httpStatus: '200',
  } as FastifySchema as never);
}

describe('the response serializer', () => {
  it('writes exactly the bytes zod and JSON.stringify wrote before, nulls, quotes and all', () => {
    const list = z.array(ZProxyConfiguration);
    const rows = [proxy, { ...proxy, targetServer: null, status: 'pending' as const }];
    expect(compile(list)(rows)).toBe(JSON.stringify(list.parse(rows)));
    const page = { entries: [], nextCursor: null };
    expect(compile(ZAuditPage)(page)).toBe(JSON.stringify(page));
    const changes = {
      entries: [
        {
          id: 1,
          actorId: null,
          actorUsername: 'admin',
          action: 'proxy.edit',
          targetType: 'proxy_configuration',
          targetId: proxy.id,
          targetOwnerId: proxy.userId,
          changes: [{ field: 'sshPort', before: 22, after: { nested: ['x', null] } }],
          createdAt: proxy.createdAt,
        },
      ],
      nextCursor: 7,
    };
    expect(compile(ZAuditPage)(changes)).toBe(JSON.stringify(ZAuditPage.parse(changes)));
    // A log line's text is a recursive union: every shape of it, nested.
    const texts = [
      null,
      'verbatim "tool" output',
      443,
      { key: 'deploy.step', params: { port: 22, size: { number: 4.5, digits: 1 } } },
      { join: ['a', { key: 'common.and' }, { date: '2026-11-24' }], sep: { key: 'x' } },
    ];
    const lines = texts.map((text, id) => ({
      id,
      configurationId: proxy.id,
      deploymentId: null,
      level: 'info' as const,
      message: 'línea',
      text,
      timestamp: proxy.createdAt,
    }));
    const logs = z.array(ZDeploymentLogEntry);
    expect(compile(logs)(lines)).toBe(JSON.stringify(logs.parse(lines)));
  });

  it('writes only the fields the schema lists: a stored secret on the row never goes out', () => {
    const row = { ...proxy, sshPasswordEnc: 'v1:secret-ciphertext', passwordHash: '$argon2id$' };
    const written = compile(ZProxyConfiguration)(row);
    expect(written).not.toContain('secret-ciphertext');
    expect(written).not.toContain('argon2');
    expect(JSON.parse(written)).toEqual(proxy);
  });

  it('refuses an answer missing a required field, and with validate one of the wrong type', () => {
    const { domain: _, ...withoutDomain } = proxy;
    expect(() => compile(ZProxyConfiguration)(withoutDomain)).toThrow(/domain/);
    const wrongStatus = { ...proxy, status: 'bogus' };
    expect(() => compile(ZProxyConfiguration, true)(wrongStatus)).toThrow();
  });
});
