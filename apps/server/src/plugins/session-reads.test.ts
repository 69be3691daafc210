import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../db/schema';
import { createTestApp, type TTestApp } from '../test-support/test-app';
import { newCredentials, TestClient } from '../test-support/test-client';
import { testDatabaseKinds } from '../test-support/test-database';

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
    // The first read after sign-up may write the session again (rolling expiry); not counted.
    expect((await client.request({ method: 'GET', url: '/api/auth/user' })).statusCode).toBe(200);
    statements = countAuthStatements(t);
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

// Another instance or the CLI writes the users table behind this process's back: only on
// PostgreSQL (on PGlite the data-dir lock keeps every other process out).
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
  },
);
