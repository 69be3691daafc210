// One's own account over the real API on PGlite and PostgreSQL: profile, e-mail and
// password; the session list; ending one session or all others — each ended session refused at
// once and its log sockets closed at once (the periodic socket check is set far off, so only
// the immediate path can close them); an audit row for each action.
import { translate } from '@portico/shared/i18n/translate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProxy, signedInClient } from '../../../test/support/proxies-test-helpers';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import { newCredentials, TestClient } from '../../../test/support/test-client';
import { testDatabaseKinds } from '../../../test/support/test-database';
import { cookieHeader, statuses, type TWatch, watch } from '../../../test/support/ws-test-helpers';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

describe.each(testDatabaseKinds())('account settings on %s', (kind) => {
  let t: TTestApp;
  let base: string;
  let admin: TestClient;
  beforeAll(async () => {
    t = await createTestApp(kind, { deploy: { socketSessionRecheckMs: 600_000 } });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    admin = (await signedInClient(t, 'admin')).client;
  });
  afterAll(async () => t?.close());

  /** One account signed in from two browsers, the second one watching a proxy's log. */
  async function twoBrowsers() {
    const creds = newCredentials('acct');
    const laptop = new TestClient(t.app, {
      headers: { 'accept-language': 'en', 'user-agent': FIREFOX },
      remoteAddress: '198.51.100.7',
    });
    expect((await laptop.register(creds)).statusCode).toBe(201);
    const phone = new TestClient(t.app, {
      headers: { 'accept-language': 'en', 'user-agent': IPHONE },
      remoteAddress: '203.0.113.9',
    });
    expect((await phone.login(creds.username, creds.password)).statusCode).toBe(200);
    const { id } = await createProxy(laptop);
    const socket = watch(base, id, { cookie: cookieHeader(phone.cookies), origin: base });
    await socket.waitFor((m) => statuses(m).length > 0);
    const userId = (await laptop.me()).json().id as string;
    return { creds, laptop, phone, socket, userId };
  }

  const closed = (socket: TWatch) =>
    Promise.race([
      socket.ended,
      new Promise((resolve) => setTimeout(() => resolve('still open'), 10_000)),
    ]);

  async function auditActions(userId: string): Promise<string[]> {
    const response = await admin.request({
      method: 'GET',
      url: `/api/admin/audit-log?userId=${userId}`,
    });
    return (response.json().entries as { action: string }[]).map((e) => e.action);
  }

  it('changes the names, refuses control characters, records it', async () => {
    const { client, user } = await signedInClient(t);
    const saved = await client.write('PUT', '/api/account/profile', {
      firstName: '  Ana ',
      lastName: 'García',
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ firstName: 'Ana', lastName: 'García' });
    const cleared = await client.write('PUT', '/api/account/profile', {
      firstName: '',
      lastName: '',
    });
    expect(cleared.json()).toMatchObject({ firstName: null, lastName: null });
    const bad = await client.write('PUT', '/api/account/profile', {
      firstName: 'Ana\u0000',
      lastName: 'x',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().issues[0]).toMatchObject({
      path: 'firstName',
      message: translate('en', 'validation.controlCharacter'),
    });
    expect((await client.me()).json().firstName).toBeNull();
    expect(await auditActions(user.id)).toEqual(['account.profile', 'account.profile']);
  });

  it('changes the e-mail only with the current password, and never to a taken one', async () => {
    const creds = newCredentials('mail');
    const client = new TestClient(t.app, { headers: { 'accept-language': 'es' } });
    await client.register(creds);
    const other = newCredentials('taken');
    await new TestClient(t.app).register(other);
    const wrong = await client.write('PUT', '/api/account/email', {
      email: 'new@example.test',
      currentPassword: 'Wrong1234',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      code: 'wrong_password',
      message: 'La contraseña actual no es correcta.',
    });
    const taken = await client.write('PUT', '/api/account/email', {
      email: other.email.toUpperCase(),
      currentPassword: creds.password,
    });
    expect(taken.statusCode).toBe(409);
    expect((await client.me()).json().email).toBe(creds.email);
    const fresh = `fresh-${creds.username}@example.test`;
    const ok = await client.write('PUT', '/api/account/email', {
      email: fresh,
      currentPassword: creds.password,
    });
    expect(ok.statusCode).toBe(200);
    expect((await new TestClient(t.app).login(fresh, creds.password)).statusCode).toBe(200);
  });

  it('a new password ends every other session and its sockets, and keeps this one', async () => {
    const { creds, laptop, phone, socket, userId } = await twoBrowsers();
    const wrong = await laptop.write('PUT', '/api/account/password', {
      currentPassword: 'Wrong1234',
      newPassword: 'Changed123',
    });
    expect(wrong.statusCode).toBe(400);
    expect((await phone.me()).statusCode).toBe(200);

    const changed = await laptop.write('PUT', '/api/account/password', {
      currentPassword: creds.password,
      newPassword: 'Changed123',
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual({ endedSessions: 1, revokedTokens: 0 });
    expect(await closed(socket)).toEqual({ code: 1008, reason: 'session ended' });
    expect((await phone.me()).statusCode).toBe(401);
    expect((await laptop.me()).statusCode).toBe(200);
    expect((await new TestClient(t.app).login(creds.username, creds.password)).statusCode).toBe(
      401,
    );
    expect((await new TestClient(t.app).login(creds.username, 'Changed123')).statusCode).toBe(200);
    expect(await auditActions(userId)).toContain('account.password');
  });

  it('lists the sessions with browser, system, address, times, this one marked', async () => {
    const { laptop, socket } = await twoBrowsers();
    socket.close();
    const sessions = (await laptop.request({ method: 'GET', url: '/api/account/sessions' })).json();
    expect(sessions).toHaveLength(2);
    expect(sessions[0]).toMatchObject({
      current: true,
      browser: 'Firefox 128',
      os: 'Linux',
      ip: '198.51.100.7',
    });
    expect(sessions[1]).toMatchObject({
      current: false,
      browser: 'Safari 17',
      os: 'iOS',
      ip: '203.0.113.9',
    });
    for (const s of sessions) {
      expect(s.id).toMatch(/^[0-9a-f]{32}$/);
      expect(Date.parse(s.signedInAt)).toBeGreaterThan(Date.now() - 60_000);
      expect(Date.parse(s.lastSeenAt)).toBeGreaterThan(Date.now() - 120_000);
    }
    // The session id itself (the cookie's value) is never shown.
    const sid = decodeURIComponent(laptop.cookies.get('portico.sid')!).split('.')[0]!;
    expect(JSON.stringify(sessions)).not.toContain(sid);
  });

  it('ends one other session: refused at once, its socket closed, this one kept', async () => {
    const { laptop, phone, socket, userId } = await twoBrowsers();
    const list = (await laptop.request({ method: 'GET', url: '/api/account/sessions' })).json();
    const [mine, theirs] = list;
    const self = await laptop.write('DELETE', `/api/account/sessions/${mine.id}`);
    expect(self.statusCode).toBe(409);
    const unknown = await laptop.write('DELETE', `/api/account/sessions/${'0'.repeat(32)}`);
    expect(unknown.statusCode).toBe(404);
    // Another account cannot end it.
    const { client: stranger } = await signedInClient(t);
    expect((await stranger.write('DELETE', `/api/account/sessions/${theirs.id}`)).statusCode).toBe(
      404,
    );
    expect((await phone.me()).statusCode).toBe(200);

    const ended = await laptop.write('DELETE', `/api/account/sessions/${theirs.id}`);
    expect(ended.statusCode).toBe(200);
    expect(await closed(socket)).toEqual({ code: 1008, reason: 'session ended' });
    expect((await phone.me()).statusCode).toBe(401);
    expect((await laptop.me()).statusCode).toBe(200);
    expect(await auditActions(userId)).toContain('account.session_end');
  });

  it('ends all other sessions at once', async () => {
    const { creds, laptop, phone, socket, userId } = await twoBrowsers();
    const third = new TestClient(t.app);
    await third.login(creds.username, creds.password);
    const ended = await laptop.write('POST', '/api/account/sessions/end-others');
    expect(ended.json()).toEqual({ ended: 2 });
    expect(await closed(socket)).toEqual({ code: 1008, reason: 'session ended' });
    expect((await phone.me()).statusCode).toBe(401);
    expect((await third.me()).statusCode).toBe(401);
    expect((await laptop.me()).statusCode).toBe(200);
    const list = (await laptop.request({ method: 'GET', url: '/api/account/sessions' })).json();
    expect(list).toHaveLength(1);
    expect(await auditActions(userId)).toContain('account.sessions_end_others');
  });
});
