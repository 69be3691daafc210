import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_SESSION_SECRET, type TTestApp } from '../../../test/support/test-app';
import { newCredentials, TestClient } from '../../../test/support/test-client';
import { testDatabaseKinds } from '../../../test/support/test-database';
import { sessionSigner } from '../../plugins/session';
import { createSessionsRepository } from '../sessions/sessions.repository';

/** The session id inside the signed cookie value `<sid>.<signature>`. */
function sidOf(client: TestClient): string {
  const value = decodeURIComponent(client.cookies.get('portico.sid') ?? '');
  return value.slice(0, value.lastIndexOf('.'));
}

function setCookieHeader(response: { headers: Record<string, unknown> }): string {
  const raw = response.headers['set-cookie'];
  return (Array.isArray(raw) ? raw : [raw]).filter(Boolean).join('\n');
}

describe.each(testDatabaseKinds())('CSRF and sessions on %s', (kind) => {
  let t: TTestApp;
  let proxied: TTestApp;
  let rolling: TTestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
    proxied = await createTestApp(kind, { config: { trustProxy: true } });
    rolling = await createTestApp(kind, { sessionTouchAfterMs: 0 });
  });
  afterAll(async () => {
    await t?.close();
    await proxied?.close();
    await rolling?.close();
  });

  describe('CSRF', () => {
    const login = { identifier: 'someone', password: 'Whatever1' };

    it.each(['es', 'en'])(
      'refuses a write without the token (403 mentioning CSRF, %s)',
      async (lang) => {
        const client = new TestClient(t.app, { headers: { 'accept-language': lang } });
        await client.fetchCsrfToken();
        const response = await client.request({
          method: 'POST',
          url: '/api/login',
          payload: login,
        });
        expect(response.statusCode).toBe(403);
        expect(response.json().code).toBe('csrf_invalid');
        expect(response.json().message).toContain('CSRF');
      },
    );

    it('refuses a write without any session', async () => {
      const response = await new TestClient(t.app).request({
        method: 'POST',
        url: '/api/logout',
        headers: { 'x-csrf-token': 'anything' },
      });
      expect(response.statusCode).toBe(403);
      expect(response.body).toContain('CSRF');
    });

    it('refuses a wrong token', async () => {
      const client = new TestClient(t.app);
      const token = await client.fetchCsrfToken();
      const response = await client.request({
        method: 'POST',
        url: '/api/login',
        payload: login,
        headers: { 'x-csrf-token': `${token.slice(0, -2)}xx` },
      });
      expect(response.statusCode).toBe(403);
      expect(response.body).toContain('CSRF');
    });

    it("refuses another session's token", async () => {
      const victim = new TestClient(t.app);
      const attacker = new TestClient(t.app);
      await victim.fetchCsrfToken();
      const attackerToken = await attacker.fetchCsrfToken();
      const response = await victim.request({
        method: 'POST',
        url: '/api/login',
        payload: login,
        headers: { 'x-csrf-token': attackerToken },
      });
      expect(response.statusCode).toBe(403);
      expect(response.body).toContain('CSRF');
    });

    it('accepts the session token (the request reaches the handler)', async () => {
      const response = await new TestClient(t.app).write('POST', '/api/login', login);
      expect(response.statusCode).toBe(401);
    });

    it('covers every unsafe method under /api, even unknown paths', async () => {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
        const response = await new TestClient(t.app).request({ method, url: '/api/whatever' });
        expect(response.statusCode).toBe(403);
      }
    });

    it.each(['/%61pi/login', '/api//login', '/api/login/', '/api/%6Cogin', '/./api/login'])(
      'cannot be walked around with an odd spelling of the path (%s)',
      async (url) => {
        const client = new TestClient(t.app);
        await client.fetchCsrfToken();
        const response = await client.request({ method: 'POST', url, payload: login });
        expect(response.statusCode).toBe(403);
        expect(response.body).toContain('CSRF');
      },
    );
  });

  describe('sessions', () => {
    const sessions = () => createSessionsRepository(t.database.db);

    it('issues a new session id at login and deletes the old row', async () => {
      const creds = newCredentials('sid');
      await new TestClient(t.app).register(creds);
      const client = new TestClient(t.app);
      await client.fetchCsrfToken();
      const before = sidOf(client);
      expect(await sessions().exists(before)).toBe(true);
      expect((await client.login(creds.username, creds.password)).statusCode).toBe(200);
      const after = sidOf(client);
      expect(after).not.toBe(before);
      expect(await sessions().exists(before)).toBe(false);
      expect(await sessions().exists(after)).toBe(true);
    });

    it('logout destroys the session server-side: the old cookie no longer works', async () => {
      const client = new TestClient(t.app);
      await client.register(newCredentials('kill'));
      const stolen = new Map(client.cookies);
      const sid = sidOf(client);
      expect((await client.logout()).statusCode).toBe(200);
      expect(await sessions().exists(sid)).toBe(false);
      const replay = new TestClient(t.app);
      for (const [k, v] of stolen) replay.cookies.set(k, v);
      expect((await replay.me()).statusCode).toBe(401);
    });

    it('sets HttpOnly, SameSite=Lax, Path=/ and no Secure over plain HTTP', async () => {
      const response = await new TestClient(t.app).request({
        method: 'GET',
        url: '/api/csrf-token',
      });
      const cookie = setCookieHeader(response);
      expect(cookie).toMatch(/portico\.sid=/);
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Lax/);
      expect(cookie).toMatch(/Path=\//);
      expect(cookie).not.toMatch(/Secure/);
    });

    it('ignores X-Forwarded-Proto unless PORTICO_TRUST_PROXY says so', async () => {
      const headers = { 'x-forwarded-proto': 'https' };
      const direct = await new TestClient(t.app).request({
        method: 'GET',
        url: '/api/csrf-token',
        headers,
      });
      expect(setCookieHeader(direct)).not.toMatch(/Secure/);
      const behindProxy = await new TestClient(proxied.app).request({
        method: 'GET',
        url: '/api/csrf-token',
        headers,
      });
      expect(setCookieHeader(behindProxy)).toMatch(/; Secure/);
    });

    it('does not store a session for an anonymous read', async () => {
      const response = await new TestClient(t.app).me();
      expect(response.statusCode).toBe(401);
      expect(setCookieHeader(response)).toBe('');
    });

    it('sweeps expired rows and never serves them', async () => {
      const repo = sessions();
      await repo.upsert('expired-sid', { userId: 'x' }, new Date(Date.now() - 1000));
      expect(await repo.find('expired-sid')).toBeUndefined();
      expect(await repo.sweepExpired()).toBeGreaterThanOrEqual(1);
      expect(await repo.exists('expired-sid')).toBe(false);
    });
  });

  describe('the rolling expiry', () => {
    /** The cookie's Expires, and the row's expiry, of `client`'s session. */
    const expiries = async (client: TestClient, cookie: string, app = t) => {
      const repository = createSessionsRepository(app.database.db);
      const row = (await repository.find(sidOf(client)))?.cookie as { expires: string };
      return {
        cookie: Date.parse(/Expires=([^;]+)/.exec(cookie)?.[1] ?? ''),
        row: Date.parse(row.expires),
      };
    };

    it('sends the cookie with each write of the row, the same expiry in both, and not between', async () => {
      const client = new TestClient(t.app);
      const registered = await client.register(newCredentials('roll'));
      expect(registered.statusCode).toBe(201);
      const written = await expiries(client, setCookieHeader(registered));
      expect(written.cookie).toBeGreaterThan(Date.now() + 6.9 * 24 * 3600_000);
      // Seconds only in the cookie's date.
      expect(Math.abs(written.cookie - written.row)).toBeLessThan(1000);
      // Within the minute an unchanged session is neither written nor sent again.
      const read = await client.me();
      expect(read.statusCode).toBe(200);
      expect(setCookieHeader(read)).toBe('');
      expect((await expiries(client, '')).row).toBe(written.row);
    });

    it('moves both once the minute has passed (here: at once)', async () => {
      const client = new TestClient(rolling.app);
      expect((await client.register(newCredentials('roll'))).statusCode).toBe(201);
      const before = (await expiries(client, '', rolling)).row;
      await new Promise((resolve) => setTimeout(resolve, 20));
      const read = await client.me();
      expect(read.statusCode).toBe(200);
      const after = await expiries(client, setCookieHeader(read), rolling);
      expect(after.row).toBeGreaterThan(before);
      expect(Math.abs(after.cookie - after.row)).toBeLessThan(1000);
      expect(setCookieHeader(read)).toMatch(/HttpOnly/);
    });

    it('clears a cookie that names no live session, and keeps no row for it', async () => {
      const client = new TestClient(t.app);
      const signed = sessionSigner(TEST_SESSION_SECRET).sign('no-such-session');
      client.cookies.set('portico.sid', encodeURIComponent(signed));
      const read = await client.me();
      expect(read.statusCode).toBe(401);
      expect(setCookieHeader(read)).toMatch(/portico\.sid=;/);
      expect(client.cookies.has('portico.sid')).toBe(false);
      expect(await createSessionsRepository(t.database.db).exists('no-such-session')).toBe(false);
    });
  });
});
