// The log socket: cross-site WebSocket hijacking and sockets that outlive their
// session. modules/deployments/ws-gateway.test.ts already covers no cookie (401), one foreign origin (403),
// another user (1008) and sign-out; this file adds the other ways in and the other ways a
// session ends.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema';
import { createSessionsRepository } from '../../src/modules/sessions/sessions.repository';
import { createProxy, signedInClient } from '../support/proxies-test-helpers';
import type { TTestApp } from '../support/test-app';
import { newCredentials, TestClient } from '../support/test-client';
import { testDatabaseKinds } from '../support/test-database';
import { cookieHeader, statuses, watch } from '../support/ws-test-helpers';
import { useMatrixWorld } from './authorization-world';

describe.each(testDatabaseKinds())('log socket and sessions on %s', (kind) => {
  let t: TTestApp;
  let base: string;
  useMatrixWorld(kind, (world) => {
    t = world.t;
    base = world.base;
  });

  /** A signed-in owner watching their own proxy, with the replay received. */
  async function watching(client: TestClient, id: string) {
    const socket = watch(base, id, { cookie: cookieHeader(client.cookies), origin: base });
    await socket.waitFor((m) => statuses(m).length > 0);
    return socket;
  }

  it.each([
    ['another site', 'https://evil.example'],
    ['a sandboxed page', 'null'],
    ['another port of this host', 'http://127.0.0.1:1'],
    ['a look-alike host', 'http://127.0.0.1.evil.example'],
    ['no URL at all', 'not a url'],
  ])('refuses the handshake from %s (Origin: %s) before any data', async (_label, origin) => {
    const { client } = await signedInClient(t);
    const { id } = await createProxy(client);
    const socket = watch(base, id, { cookie: cookieHeader(client.cookies), origin });
    expect(await socket.ended).toEqual({ code: 0, httpStatus: 403 });
    expect(socket.messages).toEqual([]);
  });

  it('refuses the handshake without a signed-in session, whatever cookie is sent', async () => {
    const { client } = await signedInClient(t);
    const { id } = await createProxy(client);
    const anonymous = new TestClient(t.app);
    await anonymous.fetchCsrfToken();
    const signedOut = new TestClient(t.app);
    await signedOut.register(newCredentials('gone'));
    const stale = cookieHeader(signedOut.cookies);
    await signedOut.logout();
    for (const cookie of [
      'portico.sid=forged-session-id',
      // A real session with no user in it (fetching a CSRF token creates one).
      cookieHeader(anonymous.cookies),
      stale,
    ]) {
      const socket = watch(base, id, { cookie, origin: base });
      expect(await socket.ended, cookie).toEqual({ code: 0, httpStatus: 401 });
      expect(socket.messages).toEqual([]);
    }
  });

  it('closes the socket when the same browser signs in as someone else', async () => {
    const { client } = await signedInClient(t);
    const { id } = await createProxy(client);
    const next = newCredentials('next');
    await new TestClient(t.app).register(next);
    const socket = await watching(client, id);
    // The same cookie jar signs in again: the session is replaced, the old one destroyed.
    expect((await client.login(next.username, next.password)).statusCode).toBe(200);
    expect((await socket.ended).code).toBe(1008);
  });

  it('closes the socket when the same browser registers a new account', async () => {
    const { client } = await signedInClient(t);
    const { id } = await createProxy(client);
    const socket = await watching(client, id);
    expect((await client.register(newCredentials('again'))).statusCode).toBe(201);
    expect((await socket.ended).code).toBe(1008);
  });

  it("closes an admin's socket on another user's proxy when the admin is demoted", async () => {
    const owner = await signedInClient(t);
    const watcher = await signedInClient(t, 'admin');
    const boss = await signedInClient(t, 'admin');
    const { id } = await createProxy(owner.client);
    const socket = await watching(watcher.client, id);
    const demoted = await boss.client.write('PATCH', `/api/admin/users/${watcher.user.id}/role`, {
      role: 'user',
    });
    expect(demoted.statusCode).toBe(200);
    expect((await socket.ended).code).toBe(1008);
  });

  it("closes an admin's socket on another user's proxy when the CLI demotes the admin", async () => {
    const owner = await signedInClient(t);
    const watcher = await signedInClient(t, 'admin');
    const { id } = await createProxy(owner.client);
    const socket = await watching(watcher.client, id);
    // What `portico user demote` runs, from another process: no request of this app sees it.
    await t.database.db.update(users).set({ role: 'user' }).where(eq(users.id, watcher.user.id));
    expect((await socket.ended).code).toBe(1008);
  });

  it('closes the socket when its session is removed outside this app (CLI password reset)', async () => {
    const { client, user } = await signedInClient(t);
    const { id } = await createProxy(client);
    const socket = await watching(client, id);
    // What `portico user reset-password` runs, from another process, or another instance.
    expect(await createSessionsRepository(t.database.db).removeForUser(user.id)).toBe(1);
    expect((await socket.ended).code).toBe(1008);
  });

  it('keeps the socket when a failed sign-in leaves the session as it was', async () => {
    const { client, user } = await signedInClient(t);
    const { id } = await createProxy(client);
    const socket = await watching(client, id);
    expect((await client.login(user.username, 'Wrong-password1')).statusCode).toBe(401);
    // Still streaming: a reset of the proxy reaches it as a new status message.
    const before = statuses(socket.messages).length;
    expect((await client.write('PATCH', `/api/proxy-configurations/${id}/reset`)).statusCode).toBe(
      200,
    );
    await socket.waitFor((m) => statuses(m).length > before);
    socket.close();
  });

  // Issue 19: one session opened 1,000 sockets. The caps are far above what tabs need.
  it('caps open sockets at 20 a session and 50 an account; the next is refused, saying so', async () => {
    const credentials = newCredentials('many');
    const first = new TestClient(t.app);
    expect((await first.register(credentials)).statusCode).toBe(201);
    const { id } = await createProxy(first);
    const session = async () => {
      const client = new TestClient(t.app);
      expect((await client.login(credentials.username, credentials.password)).statusCode).toBe(200);
      return client;
    };
    const opened = await Promise.all(Array.from({ length: 20 }, () => watching(first, id)));
    const refused = watch(base, id, { cookie: cookieHeader(first.cookies), origin: base });
    expect(await refused.ended).toEqual({
      code: 1008,
      reason: 'too many open sockets for this session (limit 20)',
    });
    expect(refused.messages).toEqual([]);

    // A closed one frees its place at once (the server may see the close a moment later).
    opened.pop()!.close();
    let again: Awaited<ReturnType<typeof watching>> | undefined;
    for (let tries = 0; !again && tries < 50; tries += 1) {
      const socket = watch(base, id, { cookie: cookieHeader(first.cookies), origin: base });
      const answer = await Promise.race([
        socket.waitFor((m) => statuses(m).length > 0).then(() => 'open' as const),
        socket.ended.then(() => 'refused' as const),
      ]);
      if (answer === 'open') again = socket;
      else await new Promise((r) => setTimeout(r, 50));
    }
    expect(again).toBeDefined();
    opened.push(again!);

    // Two more sessions of the same account: 20 + 20 + 10 = 50, then the account's cap.
    const second = await session();
    const third = await session();
    opened.push(...(await Promise.all(Array.from({ length: 20 }, () => watching(second, id)))));
    opened.push(...(await Promise.all(Array.from({ length: 10 }, () => watching(third, id)))));
    const over = watch(base, id, { cookie: cookieHeader(third.cookies), origin: base });
    expect(await over.ended).toEqual({
      code: 1008,
      reason: 'too many open sockets for this account (limit 50)',
    });
    // Another account is not affected.
    const other = await signedInClient(t);
    const theirs = await createProxy(other.client);
    const fine = await watching(other.client, theirs.id);
    for (const socket of [...opened, fine]) socket.close();
  });
});
