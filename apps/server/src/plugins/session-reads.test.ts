import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInClient } from '../../test/support/proxies-test-helpers';
import { createTestApp, type TTestApp } from '../../test/support/test-app';
import { newCredentials, TEST_PASSWORD, TestClient } from '../../test/support/test-client';
import { testDatabaseKinds } from '../../test/support/test-database';
import { apiTokens, session, users } from '../db/schema';

/** Counts the statements that read or write sessions and accounts (not pg-boss's own polling). */
function countAuthStatements(t: TTestApp): { count(): number } {
  let n = 0;
  const counted = (text: unknown) => {
    const sql = typeof text === 'string' ? text : String((text as { text?: string })?.text ?? '');
    if (/"(session|users)"/.test(sql)) n += 1;
  };
  const target = (t.database.pglite ?? t.database.pool) as unknown as {
    query: (...args: unknown[]) => unknown;
  };
  const query = target.query.bind(target);
  target.query = (...args: unknown[]) => {
    counted(args[0]);
    return query(...args);
  };
  return { count: () => n };
}

describe.each(testDatabaseKinds())('what a signed-in request reads on %s', (kind) => {
  let t: TTestApp;
  let client: TestClient;
  let statements: { count(): number };

  beforeAll(async () => {
    t = await createTestApp(kind);
    client = new TestClient(t.app);
    expect((await client.register(newCredentials('reads'))).statusCode).toBe(201);
    statements = countAuthStatements(t);
    // The first read after sign-up: on PostgreSQL the one query and no write (the data as jsonb
    // hands it back, keys in its own order, is the data just written); on PGlite the account
    // is read into memory once.
    expect((await client.request({ method: 'GET', url: '/api/auth/user' })).statusCode).toBe(200);
    expect(statements.count()).toBe(1);
  });
  afterAll(async () => t?.close());

  it(
    kind === 'postgres'
      ? 'reads the session and its account in one query, so a change elsewhere shows at once'
      : 'reads neither from the table: this process is the only writer and keeps both current',
    async () => {
      const before = statements.count();
      const me = await client.request({ method: 'GET', url: '/api/auth/user' });
      expect(me.statusCode).toBe(200);
      expect(statements.count() - before).toBe(kind === 'postgres' ? 1 : 0);
    },
  );
});

/** A manage token of `client`'s account, and a request made with it (plus any other headers). */
async function tokenOf(t: TTestApp, client: TestClient) {
  const created = await client.write('POST', '/api/account/tokens', {
    name: 'reads',
    scope: 'manage',
    expiresInDays: null,
    password: TEST_PASSWORD,
  });
  expect(created.statusCode).toBe(201);
  const { id, token } = created.json() as { id: string; token: string };
  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers: { ...headers, authorization: `Bearer ${token}` } });
  return { id, get };
}

const sidOf = (client: TestClient) =>
  decodeURIComponent(client.cookies.get('portico.sid')!).split('.')[0]!;

// What this process keeps between requests (cookie signatures, sessions on PGlite, frozen
// account rows) must never outlive a change made through the API.
describe.each(testDatabaseKinds())('with everything kept warm on %s', (kind) => {
  let t: TTestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  // Requests that come together are read together (db/batched-reads.ts): each must still get
  // its own session and account.
  it('signed-in requests at once are each answered as their own account', async () => {
    const accounts = [];
    for (let i = 0; i < 6; i += 1)
      accounts.push(await signedInClient(t, 'user', `10.9.0.${i + 1}`));
    const statements = countAuthStatements(t);
    const asked = accounts.flatMap(({ client, user }) =>
      [1, 2, 3].map(async () => {
        const me = await client.me();
        expect(me.statusCode).toBe(200);
        return [(me.json() as { username: string }).username, user.username];
      }),
    );
    const answered = await Promise.all(asked);
    for (const [got, expected] of answered) expect(got).toBe(expected);
    if (kind === 'postgres') {
      // 18 requests, 6 sessions: fewer reads than requests, and at least one.
      expect(statements.count()).toBeGreaterThan(0);
      expect(statements.count()).toBeLessThan(answered.length);
    }
  });

  it('an ended session, a revoked token and a role change show at the next request', async () => {
    const { client: admin } = await signedInClient(t, 'admin');
    const { client: laptop, user } = await signedInClient(t);
    const phone = new TestClient(t.app, { headers: { 'accept-language': 'en' } });
    const me = (await laptop.me()).json() as { username: string };
    expect((await phone.login(me.username, 'Secret123')).statusCode).toBe(200);
    const token = await tokenOf(t, laptop);
    const adminList = (client: TestClient) =>
      client.request({ method: 'GET', url: '/api/admin/users' });
    for (let i = 0; i < 3; i += 1) {
      expect((await laptop.me()).statusCode).toBe(200);
      expect((await phone.me()).statusCode).toBe(200);
      expect((await token.get('/api/auth/user')).statusCode).toBe(200);
      expect((await adminList(laptop)).statusCode).toBe(403);
    }

    const setRole = (role: string) =>
      admin.write('PATCH', `/api/admin/users/${user.id}/role`, { role });
    expect((await setRole('admin')).statusCode).toBe(200);
    expect((await adminList(laptop)).statusCode).toBe(200);
    expect((await adminList(phone)).statusCode).toBe(200);
    // A token carries user rights only, whoever owns it.
    expect((await token.get('/api/admin/users')).statusCode).toBe(403);
    expect((await setRole('user')).statusCode).toBe(200);
    expect((await adminList(laptop)).statusCode).toBe(403);
    expect((await adminList(phone)).statusCode).toBe(403);

    const sessions = (await laptop.request({ method: 'GET', url: '/api/account/sessions' })).json();
    const other = sessions.find((s: { current: boolean }) => !s.current);
    expect((await laptop.write('DELETE', `/api/account/sessions/${other.id}`)).statusCode).toBe(
      200,
    );
    expect((await phone.me()).statusCode).toBe(401);
    expect((await laptop.me()).statusCode).toBe(200);

    expect((await laptop.write('DELETE', `/api/account/tokens/${token.id}`)).statusCode).toBe(200);
    expect((await token.get('/api/auth/user')).statusCode).toBe(401);
    // Not even beside the cookie of a live session of the same account.
    const cookie = `portico.sid=${laptop.cookies.get('portico.sid')}`;
    expect((await token.get('/api/auth/user', { cookie })).statusCode).toBe(401);
    expect((await laptop.me()).statusCode).toBe(200);
  });
});

// Another instance or the CLI writes the tables behind this process's back: only on PostgreSQL
// (on PGlite the data-dir lock keeps every other process out).
describe.each(testDatabaseKinds().filter((k) => k === 'postgres'))(
  'a signed-in request on %s',
  (kind) => {
    let t: TTestApp;
    let client: TestClient;
    beforeAll(async () => {
      t = await createTestApp(kind);
      client = new TestClient(t.app);
      expect((await client.register(newCredentials('behind'))).statusCode).toBe(201);
    });
    afterAll(async () => t?.close());

    it('sees the account as it is in the table now: promoted, demoted, deleted', async () => {
      const me = (await client.request({ method: 'GET', url: '/api/auth/user' })).json();
      const admin = () => client.request({ method: 'GET', url: '/api/admin/stats/users' });
      const setRole = (role: 'admin' | 'user') =>
        t.database.db.update(users).set({ role }).where(eq(users.id, me.id));
      expect((await admin()).statusCode).toBe(403);
      await setRole('admin');
      expect((await admin()).statusCode).toBe(200);
      await setRole('user');
      expect((await admin()).statusCode).toBe(403);
      await t.database.db.delete(users).where(eq(users.id, me.id));
      const gone = await client.request({ method: 'GET', url: '/api/auth/user' });
      expect(gone.statusCode).toBe(401);
    });

    it('is refused once its session row or its token row is deleted elsewhere', async () => {
      const { client: browser } = await signedInClient(t);
      const token = await tokenOf(t, browser);
      for (let i = 0; i < 3; i += 1) {
        expect((await browser.me()).statusCode).toBe(200);
        expect((await token.get('/api/auth/user')).statusCode).toBe(200);
      }
      await t.database.db.delete(apiTokens).where(eq(apiTokens.id, token.id));
      expect((await token.get('/api/auth/user')).statusCode).toBe(401);
      expect((await browser.me()).statusCode).toBe(200);
      await t.database.db.delete(session).where(eq(session.sid, sidOf(browser)));
      expect((await browser.me()).statusCode).toBe(401);
    });
  },
);
