import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createProxy,
  markDeployed,
  proxyInput,
  signedInClient,
} from '../../../test/support/proxies-test-helpers';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import { testDatabaseKinds } from '../../../test/support/test-database';
import { auditLog, proxyConfigurations } from '../../db/schema';

const PASSWORD = 'Basic-Auth-Pass-42';
const OPTIONS = {
  upstreams: [{ url: 'http://10.0.0.7:8080' }, { url: 'http://10.0.0.8:8080', weight: 2 }],
  loadBalancing: 'least_conn',
  hsts: { maxAge: 31536000, includeSubDomains: true, preload: false },
  basicAuth: [{ username: 'ana', password: PASSWORD }],
  allow: ['10.0.0.0/8'],
  redirect: undefined,
};

describe.each(testDatabaseKinds())('proxy options through the API on %s', (kind) => {
  let t: TTestApp;
  let custom: TTestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
    custom = await createTestApp(kind, { config: { allowCustomNginx: true } });
  });
  afterAll(async () => {
    await t?.close();
    await custom?.close();
  });

  const rowOf = async (app: TTestApp, id: string) =>
    (
      await app.database.db.select().from(proxyConfigurations).where(eq(proxyConfigurations.id, id))
    )[0]!;

  it('stores options on create, the first upstream as the target, passwords only hashed and never answered', async () => {
    const { client } = await signedInClient(t);
    const { id } = await createProxy(client, {
      targetServer: 'http://10.0.0.1:80',
      options: OPTIONS,
    });
    const row = await rowOf(t, id);
    expect(row.targetServer).toBe('http://10.0.0.7:8080');
    expect(row.options.basicAuth).toEqual([
      { username: 'ana', passwordHash: expect.stringMatching(/^\$6\$/) },
    ]);
    const got = await client.request({ method: 'GET', url: `/api/proxy-configurations/${id}` });
    expect(got.statusCode).toBe(200);
    expect(got.json().options).toEqual({
      upstreams: OPTIONS.upstreams,
      loadBalancing: 'least_conn',
      hsts: OPTIONS.hsts,
      basicAuth: [{ username: 'ana', hasPassword: true }],
      allow: ['10.0.0.0/8'],
    });
    expect(got.json().targetServer).toBe('http://10.0.0.7:8080');
    expect(got.body).not.toContain(PASSWORD);
    expect(got.body).not.toContain(row.options.basicAuth![0]!.passwordHash);
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, id));
    expect(JSON.stringify(audit)).not.toContain(PASSWORD);
    expect(JSON.stringify(audit)).not.toContain('$6$');
  });

  it('an edit keeps the hash of a user sent without a password, and a changed option marks the proxy changed', async () => {
    const { client } = await signedInClient(t);
    const { id, input } = await createProxy(client, { options: OPTIONS });
    const before = (await rowOf(t, id)).options.basicAuth![0]!.passwordHash;
    await markDeployed(t, id);
    const deployed = await client.request({
      method: 'GET',
      url: `/api/proxy-configurations/${id}`,
    });
    expect(deployed.json().changedSinceDeploy).toBe(false);
    const edit = {
      domain: input.domain,
      targetServer: 'http://10.0.0.7:8080',
      serverIp: input.serverIp,
      sshUser: 'root',
      sshPort: 22,
      options: {
        ...OPTIONS,
        basicAuth: [{ username: 'ana' }, { username: 'bo', password: 'another-one' }],
        websocket: false,
      },
    };
    const r = await client.write('PUT', `/api/user/proxy-configurations/${id}`, edit);
    expect(r.statusCode).toBe(200);
    expect(r.json().options.basicAuth).toEqual([
      { username: 'ana', hasPassword: true },
      { username: 'bo', hasPassword: true },
    ]);
    expect(r.json().options.websocket).toBe(false);
    expect(r.json().changedSinceDeploy).toBe(true);
    const after = (await rowOf(t, id)).options.basicAuth!;
    expect(after[0]!.passwordHash).toBe(before);
    expect(after[1]!.passwordHash).toMatch(/^\$6\$/);
    // An edit without options keeps them.
    const { options: _, ...withoutOptions } = edit;
    const kept = await client.write('PUT', `/api/user/proxy-configurations/${id}`, withoutOptions);
    expect(kept.json().options.basicAuth).toHaveLength(2);
  });

  it.each([
    [
      '500 upstreams',
      { upstreams: Array.from({ length: 500 }, (_, i) => ({ url: `10.1.${i >> 8}.${i & 255}` })) },
      'options.upstreams',
      'At most 32 upstreams',
      'Como máximo 32',
    ],
    [
      'a CIDR with host bits set',
      { deny: ['192.168.1.1/24'] },
      'options.deny.0',
      'host bits',
      'bits de host',
    ],
    [
      'a header name with a colon',
      { headers: [{ name: 'X-A:b', value: '1' }] },
      'options.headers.0.name',
      'no colon',
      'sin dos puntos',
    ],
    [
      'a header name with CRLF',
      { headers: [{ name: 'X-A\r\nSet-Cookie: a', value: '1' }] },
      'options.headers.0.name',
      'no colon',
      'sin dos puntos',
    ],
    [
      'a path with {',
      { locations: [{ path: '/a{b}', upstreams: [{ url: '10.0.0.2' }] }] },
      'options.locations.0.path',
      'no braces',
      'sin llaves',
    ],
    [
      'a path with ;',
      { locations: [{ path: '/a;b', upstreams: [{ url: '10.0.0.2' }] }] },
      'options.locations.0.path',
      'no braces',
      'sin llaves',
    ],
    [
      'a path with a space',
      { locations: [{ path: '/a b', upstreams: [{ url: '10.0.0.2' }] }] },
      'options.locations.0.path',
      'no braces',
      'sin llaves',
    ],
    [
      'a redirect to javascript:',
      { redirect: { to: 'javascript:alert(1)' } },
      'options.redirect.to',
      'http:// or https://',
      'http:// o https://',
    ],
    [
      'a basic-auth user with :',
      { basicAuth: [{ username: 'a:b', password: PASSWORD }] },
      'options.basicAuth.0.username',
      'no colon',
      'sin dos puntos',
    ],
  ])(
    'refuses %s on the field, in en and es, and writes nothing',
    async (_, options, path, en, es) => {
      const { client } = await signedInClient(t);
      const { id, input } = await createProxy(client);
      const before = await rowOf(t, id);
      for (const [lang, words] of [
        ['en', en],
        ['es', es],
      ] as const) {
        const r = await client.write(
          'POST',
          '/api/proxy-configurations',
          { ...input, configurationId: id, options },
          { 'accept-language': lang },
        );
        expect(r.statusCode).toBe(400);
        const issue = r.json().issues.find((i: { path: string }) => i.path === path);
        expect(issue?.message).toContain(words);
      }
      expect(await rowOf(t, id)).toEqual(before);
    },
  );

  it('refuses a redirect to the proxy own domain (a loop), on the field', async () => {
    const input = proxyInput();
    const r = await (await signedInClient(t)).client.write(
      'POST',
      '/api/proxy-configurations',
      {
        ...input,
        options: { redirect: { to: `https://${input.domain}/x` } },
      },
      { 'accept-language': 'es' },
    );
    expect(r.statusCode).toBe(400);
    expect(r.json().issues).toEqual([
      { path: 'options.redirect.to', message: expect.stringContaining('sin fin') },
    ]);
  });

  it('refuses a new basic-auth user without a password, on the field, writing nothing', async () => {
    const { client } = await signedInClient(t);
    const { id, input } = await createProxy(client);
    const before = await rowOf(t, id);
    const r = await client.write(
      'POST',
      '/api/proxy-configurations',
      { ...input, configurationId: id, options: { basicAuth: [{ username: 'new' }] } },
      { 'accept-language': 'es' },
    );
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({
      code: 'validation_failed',
      text: { key: 'validation.invalidRequest' },
      issues: [
        {
          path: 'options.basicAuth.0.password',
          message: 'Un usuario nuevo necesita una contraseña',
        },
      ],
    });
    expect(await rowOf(t, id)).toEqual(before);
  });

  it('advanced lines only on an instance that allows them', async () => {
    const options = { advanced: 'proxy_buffering off;' };
    const refused = await (await signedInClient(t)).client.write(
      'POST',
      '/api/proxy-configurations',
      proxyInput({ options }),
      { 'accept-language': 'en' },
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.json().issues).toEqual([
      { path: 'options.advanced', message: expect.stringContaining('PORTICO_ALLOW_CUSTOM_NGINX') },
    ]);
    const { client } = await signedInClient(custom);
    const { id } = await createProxy(client, { options });
    expect((await rowOf(custom, id)).options).toEqual(options);
  });
});
