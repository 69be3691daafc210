// Injection, the writes that store what later reaches a server or an nginx file: save
// (create and resume), the owner's edit, the admin's edit and the admin's destination servers.
// Every field, fuzzed with the shared corpus, is refused with a 400 in the caller's language and
// leaves every table that could hold it byte for byte as it was. The bodies' SSH address and port
// point at a counting listener on 127.0.0.1, which must see no connection.
import type { TLanguage } from '@portico/shared/api-error';
import { translate } from '@portico/shared/i18n/translate';
import { asc } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditLog,
  deployments,
  destinationServers,
  proxyConfigurations,
} from '../../src/db/schema';
import { createProxy, proxyInput, signedInClient } from '../support/proxies-test-helpers';
import { createTestApp, type TTestApp } from '../support/test-app';
import type { TestClient } from '../support/test-client';
import {
  assertPlantedRefused,
  expectValidationRefusal,
  explicitValues,
  shown,
  type TCountingListener,
  type TFieldKind,
  tcpCounter,
} from './injection-api-helpers';
import {
  validDomain,
  validEmail,
  validIpv4,
  validSshUser,
  validTarget,
  validTargetHost,
} from './injection-corpus';

const RUNS = 25;

interface TWriteCase {
  name: string;
  method: 'POST' | 'PUT';
  url: () => string;
  client: () => TestClient;
  base: () => Record<string, unknown>;
  fields: { field: string; kind: TFieldKind; valid: fc.Arbitrary<string> }[];
}

const EDIT_FIELDS: TWriteCase['fields'] = [
  { field: 'domain', kind: 'domain', valid: validDomain },
  { field: 'targetServer', kind: 'target', valid: validTarget },
  // The edit dialog takes an address or a host name here.
  { field: 'serverIp', kind: 'host', valid: validTargetHost },
  { field: 'sshUser', kind: 'sshUser', valid: validSshUser },
  { field: 'sshPort', kind: 'port', valid: fc.constant('2222') },
];

const SAVE_FIELDS: TWriteCase['fields'] = [
  { field: 'serverIp', kind: 'host', valid: validIpv4 },
  { field: 'domain', kind: 'domain', valid: validDomain },
  { field: 'sshUser', kind: 'sshUser', valid: validSshUser },
  { field: 'sshPort', kind: 'port', valid: fc.constant('2222') },
  { field: 'email', kind: 'email', valid: validEmail },
  { field: 'targetServer', kind: 'target', valid: validTarget },
];

describe('injection: stored fields refuse hostile values and nothing is stored', () => {
  let t: TTestApp;
  // The SSH address and port of every base body: saving or editing must never connect.
  let ssh: TCountingListener;
  let owner: TestClient;
  let admin: TestClient;
  let proxyId: string;
  let destinationId: string;

  beforeAll(async () => {
    ssh = await tcpCounter();
    t = await createTestApp('pglite');
    ({ client: owner } = await signedInClient(t));
    ({ client: admin } = await signedInClient(t, 'admin'));
    ({ id: proxyId } = await createProxy(owner));
    const created = await admin.write('POST', '/api/admin/destination-servers', {
      name: 'backend',
      endpoint: 'http://10.0.0.7:8080',
    });
    expect(created.statusCode).toBe(201);
    destinationId = created.json().id;
  });
  afterAll(async () => {
    await t?.close();
    await ssh?.close();
  });

  /** Every row of every table a write could touch, in a stable order. */
  async function snapshot(): Promise<string> {
    const db = t.database.db;
    const tables = await Promise.all([
      db.select().from(proxyConfigurations).orderBy(asc(proxyConfigurations.id)),
      db.select().from(destinationServers).orderBy(asc(destinationServers.id)),
      db.select().from(auditLog).orderBy(asc(auditLog.id)),
      db.select().from(deployments).orderBy(asc(deployments.id)),
    ]);
    return JSON.stringify(tables);
  }

  const editBody = () => ({
    domain: 'edited.example.com',
    targetServer: 'http://10.0.0.8:3000',
    serverIp: '127.0.0.1',
    sshUser: 'deploy',
    sshPort: ssh.port,
  });

  const cases = (): TWriteCase[] => [
    {
      name: 'create',
      method: 'POST',
      url: () => '/api/proxy-configurations',
      client: () => owner,
      base: () => proxyInput({ serverIp: '127.0.0.1', sshPort: ssh.port }),
      fields: SAVE_FIELDS,
    },
    {
      name: 'resume (save with configurationId)',
      method: 'POST',
      url: () => '/api/proxy-configurations',
      client: () => owner,
      base: () =>
        proxyInput({ configurationId: proxyId, serverIp: '127.0.0.1', sshPort: ssh.port }),
      fields: SAVE_FIELDS,
    },
    {
      name: 'owner edit',
      method: 'PUT',
      url: () => `/api/user/proxy-configurations/${proxyId}`,
      client: () => owner,
      base: editBody,
      fields: EDIT_FIELDS,
    },
    {
      name: 'admin edit',
      method: 'PUT',
      url: () => `/api/admin/proxy-configurations/${proxyId}`,
      client: () => admin,
      base: editBody,
      fields: EDIT_FIELDS,
    },
    {
      name: 'destination create',
      method: 'POST',
      url: () => '/api/admin/destination-servers',
      client: () => admin,
      base: () => ({ name: 'other', endpoint: 'http://10.0.0.9' }),
      fields: [{ field: 'endpoint', kind: 'target', valid: validTarget }],
    },
    {
      name: 'destination update',
      method: 'PUT',
      url: () => `/api/admin/destination-servers/${destinationId}`,
      client: () => admin,
      base: () => ({ endpoint: 'http://10.0.0.9' }),
      fields: [{ field: 'endpoint', kind: 'target', valid: validTarget }],
    },
  ];

  async function refused(c: TWriteCase, field: string, value: unknown, lang: TLanguage) {
    const response = await c
      .client()
      .write(c.method, c.url(), { ...c.base(), [field]: value }, { 'accept-language': lang });
    expectValidationRefusal(response, field, lang, `${c.name} ${field}=${shown(value)}`);
  }

  /** Runs the refusals of one field and checks that the database is exactly as before. */
  async function unchangedBy(c: TWriteCase, field: string, work: () => Promise<void>) {
    const before = await snapshot();
    await work();
    expect(await snapshot(), `${c.name} ${field}: the database changed`).toBe(before);
    expect(ssh.count(), `${c.name} ${field}: connected to the SSH stand-in`).toBe(0);
  }

  it('control: the base bodies are accepted (so each refusal below is the field’s)', async () => {
    for (const c of cases()) {
      const response = await c.client().write(c.method, c.url(), c.base());
      expect(response.statusCode, `${c.name}: ${response.body}`).toBeLessThan(300);
    }
  });

  it('each field with corpus fragments planted in a valid value', async () => {
    for (const c of cases()) {
      for (const f of c.fields) {
        await unchangedBy(c, f.field, () =>
          assertPlantedRefused(f, RUNS, (value, lang) => refused(c, f.field, value, lang)),
        );
      }
    }
  });

  it('plain spaces at the edges are trimmed; nothing else at an edge is', async () => {
    const input = proxyInput();
    const sent = {
      ...input,
      domain: `  ${input.domain.toUpperCase()} `,
      serverIp: ' 203.0.113.30',
      sshUser: 'deploy  ',
      email: ' ops@example.com ',
      targetServer: '   http://10.0.0.5:8080/app ',
    };
    const response = await owner.write('POST', '/api/proxy-configurations', sent);
    expect(response.statusCode, response.body).toBe(200);
    const got = await owner.request({
      method: 'GET',
      url: `/api/proxy-configurations/${response.json().id}`,
    });
    expect(got.json()).toMatchObject({
      domain: input.domain,
      serverIp: '203.0.113.30',
      sshUser: 'deploy',
      email: 'ops@example.com',
      targetServer: 'http://10.0.0.5:8080/app',
    });
  });

  // docs/SECURITY.md promises these a refusal: "example.com\n" must not become "example.com".
  it('a control or line-break character at an edge is refused, saying so, in es and en', async () => {
    const edges = ['\n', '\r\n', '\t', '\0', '\u0085', '\u2028', '\u2029', '\u007F'];
    const values = {
      domain: 'example.com',
      serverIp: '203.0.113.30',
      sshUser: 'deploy',
      email: 'ops@example.com',
      targetServer: 'http://10.0.0.5:8080/app',
    };
    const validOf = (field: string) =>
      field === 'endpoint' ? values.targetServer : values[field as keyof typeof values];
    for (const c of cases()) {
      for (const { field: target } of c.fields) {
        const valid = validOf(target);
        if (valid === undefined) continue;
        await unchangedBy(c, target, async () => {
          for (const [i, edge] of edges.entries()) {
            const value = i % 2 ? `${valid}${edge}` : `${edge}${valid}`;
            for (const lang of ['es', 'en'] as const) {
              const response = await c
                .client()
                .write(
                  c.method,
                  c.url(),
                  { ...c.base(), [target]: value },
                  { 'accept-language': lang },
                );
              const what = `${c.name} ${target}=${shown(value)}`;
              expectValidationRefusal(response, target, lang, what);
              const issue = response.json().issues.find((x: { path: string }) => x.path === target);
              expect(issue.message, what).toBe(translate(lang, 'validation.controlCharacter'));
            }
          }
        });
      }
    }
  });

  it('each field given hand-picked hostile values and wrong types', async () => {
    for (const c of cases()) {
      for (const f of c.fields) {
        await unchangedBy(c, f.field, async () => {
          for (const [i, value] of explicitValues(f.kind).entries()) {
            await refused(c, f.field, value, i % 2 ? 'en' : 'es');
          }
        });
      }
    }
  });
});
