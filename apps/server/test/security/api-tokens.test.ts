// Personal API tokens over the real API on PGlite and PostgreSQL (the authorization
// matrix covers every route for four token callers): shown once, listed without it, working
// without a CSRF token while the cookie path still needs one, refused at once when revoked or
// expired, "last used" kept, other Authorization schemes left alone, OpenAPI describing it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInClient } from '../support/proxies-test-helpers';
import type { TTestApp } from '../support/test-app';
import { TEST_PASSWORD, type TestClient } from '../support/test-client';
import { testDatabaseKinds } from '../support/test-database';
import { clockedApp, type TClock } from '../support/two-factor-test-helpers';

const PROXIES = '/api/user/proxy-configurations';
const DAY = 24 * 60 * 60 * 1000;

describe.each(testDatabaseKinds())('API tokens on %s', (kind) => {
  let t: TTestApp;
  let clock: TClock;
  beforeAll(async () => {
    ({ t, clock } = await clockedApp(kind, { deploy: { workers: 0 } }));
  });
  afterAll(async () => t?.close());

  async function newToken(
    client: TestClient,
    scope: 'read' | 'manage' = 'manage',
    expiresInDays: number | null = null,
  ) {
    const response = await client.write('POST', '/api/account/tokens', {
      name: `test ${scope}`,
      scope,
      expiresInDays,
      password: TEST_PASSWORD,
    });
    expect(response.statusCode).toBe(201);
    return response.json() as { id: string; token: string; hint: string; expiresAt: string | null };
  }
  const as = (token: string, method: 'GET' | 'POST' = 'GET', url = PROXIES, payload?: object) =>
    t.app.inject({
      method,
      url,
      payload,
      headers: { authorization: `Bearer ${token}`, 'accept-language': 'en' },
    });

  it('shows the token once; the list shows its name, scope, dates and hint only', async () => {
    const { client } = await signedInClient(t);
    const created = await newToken(client, 'read', 30);
    expect(created.token).toMatch(/^ptk_[A-Za-z0-9_-]{43}$/);
    expect(created.hint).toBe(created.token.slice(0, 8));
    expect(Date.parse(created.expiresAt!)).toBe(clock.now() + 30 * DAY);
    const list = await client.request({ method: 'GET', url: '/api/account/tokens' });
    expect(list.body).not.toContain(created.token);
    expect(list.json()).toEqual([
      expect.objectContaining({
        id: created.id,
        scope: 'read',
        hint: created.hint,
        lastUsedAt: null,
      }),
    ]);
  });

  it('works without a CSRF token, while the cookie still needs one', async () => {
    const { client } = await signedInClient(t);
    const { token } = await newToken(client);
    const input = {
      serverIp: '127.0.0.1',
      sshPort: 1,
      domain: `tok-${Date.now()}.example.com`,
      sshUser: 'root',
      sshPassword: 'Token-made-1',
      email: 'a@example.com',
      targetServer: 'http://10.0.0.5:8080',
    };
    const made = await as(token, 'POST', '/api/proxy-configurations', input);
    expect(made.statusCode).toBe(200);
    const cookieOnly = await client.request({
      method: 'POST',
      url: '/api/proxy-configurations',
      payload: { ...input, domain: `cookie-${input.domain}` },
    });
    expect(cookieOnly.statusCode).toBe(403);
    expect(cookieOnly.json().code).toBe('csrf_invalid');
    const listed = await as(token);
    expect(listed.json().map((p: { domain: string }) => p.domain)).toContain(input.domain);
    const tokens = (await client.request({ method: 'GET', url: '/api/account/tokens' })).json();
    expect(tokens[0].lastUsedAt).not.toBeNull();
  });

  it('is refused at once when revoked, with the reason, and only its owner revokes it', async () => {
    const { client } = await signedInClient(t);
    const { client: stranger } = await signedInClient(t);
    const { id, token } = await newToken(client);
    expect((await as(token)).statusCode).toBe(200);
    expect((await stranger.write('DELETE', `/api/account/tokens/${id}`)).statusCode).toBe(404);
    expect((await as(token)).statusCode).toBe(200);
    expect((await client.write('DELETE', `/api/account/tokens/${id}`)).statusCode).toBe(200);
    const refused = await as(token);
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    expect(refused.json()).toMatchObject({
      code: 'invalid_token',
      message: 'The API token is not valid: it was revoked, has expired, or never existed.',
    });
  });

  it('is refused at once when it expires', async () => {
    const { client } = await signedInClient(t);
    const { token } = await newToken(client, 'read', 1);
    expect((await as(token)).statusCode).toBe(200);
    const start = clock.now();
    while (clock.now() < start + DAY) clock.nextStep();
    expect((await as(token)).statusCode).toBe(401);
  });

  it('never lets a token stand in for a session: a bad token is not "signed out"', async () => {
    const { client } = await signedInClient(t);
    // With a valid cookie too: a wrong token is refused, not ignored in favour of the cookie.
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const wrong = await t.app.inject({
      method: 'GET',
      url: PROXIES,
      headers: { cookie, authorization: `Bearer ptk_${'A'.repeat(43)}` },
    });
    expect(wrong.statusCode).toBe(401);
    // Another scheme (a proxy's Basic auth in front) is none of Portico's business.
    const basic = await t.app.inject({
      method: 'GET',
      url: PROXIES,
      headers: { cookie, authorization: 'Basic dXNlcjpwYXNz' },
    });
    expect(basic.statusCode).toBe(200);
  });

  it('cannot mint tokens, nor use the account settings', async () => {
    const { client } = await signedInClient(t);
    const { token } = await newToken(client);
    const mint = await as(token, 'POST', '/api/account/tokens', {
      name: 'more',
      scope: 'manage',
      expiresInDays: null,
      password: TEST_PASSWORD,
    });
    expect(mint.statusCode).toBe(403);
    expect(mint.json().code).toBe('token_session_only');
    expect((await as(token, 'GET', '/api/account/tokens')).statusCode).toBe(403);
  });

  it('is described in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.security).toEqual([{ cookie: [] }, { bearer: [] }]);
    expect(doc.paths['/api/account/tokens'].post.security).toEqual([{ cookie: [] }]);
    expect(doc.paths['/api/user/proxy-configurations'].get.security).toBeUndefined();
  });
});
