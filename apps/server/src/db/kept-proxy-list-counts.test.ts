// The proxy lists' kept counts on PGlite, the database that keeps them: after every kind of write
// that changes a count (a status, a certificate's state, a row added or gone, a transaction) and
// when a certificate's dates cross into warning or expiry, the kept counts are those the
// database counts afresh; while nothing changed, no statement runs.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertManyProxies } from '../../test/support/many-proxies';
import { rowsReadRecorder } from '../../test/support/rows-read';
import { createTestDatabase, type TTestDatabase } from '../../test/support/test-database';
import { keptProxyListCounts, proxyListCounts, type TProxyListScope } from './proxy-lists';
import { certificateStatus, proxyConfigurations, users } from './schema';

const DAY = 24 * 60 * 60 * 1000;

describe('the proxy lists’ kept counts on pglite', () => {
  let t: TTestDatabase;
  let scope: TProxyListScope;
  let ids: string[];
  beforeAll(async () => {
    t = await createTestDatabase('pglite');
    const [user] = await t.database.db
      .insert(users)
      .values({ username: 'counted', email: 'counted@example.com', passwordHash: 'x' })
      .returning({ id: users.id });
    ids = await insertManyProxies(t.database.db, user!.id, 20, { prefix: 'kept' });
    scope = { where: eq(proxyConfigurations.userId, user!.id), key: `user ${user!.id}` };
  });
  afterAll(async () => {
    await t?.drop();
  });

  it('is what a fresh count says after each write, and reads nothing while nothing changed', async () => {
    const kept = keptProxyListCounts(t.database.writes)!;
    const recorder = rowsReadRecorder(t.database);
    const now = new Date();
    const counted = (query = {}) => proxyListCounts(recorder.db, scope, query, now, kept);
    const fresh = (query = {}) => proxyListCounts(t.database.db, scope, query, now);
    const agrees = async (query = {}) => {
      const before = recorder.statements.length;
      const answer = await counted(query);
      expect(answer).toEqual(await fresh(query));
      return recorder.statements.length - before;
    };

    expect(await agrees()).toBe(1);
    expect(await agrees()).toBe(0);
    // Another status of the same filters: the same kept groups.
    expect(await agrees({ status: 'failed' })).toBe(0);
    expect((await counted()).counts.status.failed).toBe(0);

    await t.database.db
      .update(proxyConfigurations)
      .set({ status: 'failed' })
      .where(eq(proxyConfigurations.id, ids[3]!));
    expect(await agrees()).toBe(1);
    expect((await counted()).counts.status.failed).toBe(1);

    await t.database.db.insert(certificateStatus).values({
      configurationId: ids[4]!,
      served: {
        fingerprint: 'AA',
        notBefore: new Date(now.getTime() - 90 * DAY).toISOString(),
        notAfter: new Date(now.getTime() - DAY).toISOString(),
        issuer: 'test',
        names: [],
      },
    });
    expect(await agrees({ certificate: 'expired' })).toBe(1);
    expect((await counted()).counts.certificate.expired).toBe(1);

    await t.database.db.delete(proxyConfigurations).where(eq(proxyConfigurations.id, ids[5]!));
    expect(await agrees()).toBe(1);
    expect((await counted()).total).toBe(19);

    await t.database.db.transaction(async (tx) => {
      await tx
        .update(proxyConfigurations)
        .set({ status: 'deployed' })
        .where(eq(proxyConfigurations.id, ids[6]!));
    });
    expect(await agrees()).toBe(1);
    expect((await counted()).counts.status.deployed).toBe(1);
    // A search is its own count.
    expect(await agrees({ q: 'kept-1' })).toBe(1);
    expect(await agrees({ q: 'kept-1' })).toBe(0);
  });

  it('is read again once a certificate comes into warning or expires, with no write', async () => {
    const kept = keptProxyListCounts(t.database.writes)!;
    const now = new Date();
    // 90 days' validity: warning from 30 days before the end, here 10 minutes from now.
    const notAfter = new Date(now.getTime() + 30 * DAY + 10 * 60_000);
    await t.database.db.insert(certificateStatus).values({
      configurationId: ids[8]!,
      served: {
        fingerprint: 'BB',
        notBefore: new Date(notAfter.getTime() - 90 * DAY).toISOString(),
        notAfter: notAfter.toISOString(),
        issuer: 'test',
        names: [],
      },
    });
    const at = (ms: number) => new Date(now.getTime() + ms);
    const expiring = async (when: Date) => {
      const answer = await proxyListCounts(t.database.db, scope, {}, when, kept);
      expect(answer).toEqual(await proxyListCounts(t.database.db, scope, {}, when));
      return answer.counts.certificate;
    };
    expect((await expiring(now)).expiring).toBe(0);
    expect((await expiring(at(9 * 60_000))).expiring).toBe(0);
    expect((await expiring(at(11 * 60_000))).expiring).toBe(1);
    const ended = at(30 * DAY + 11 * 60_000);
    expect(await expiring(ended)).toMatchObject({ expiring: 0, expired: 2 });
  });

  it('is not kept on postgresql, where other instances write', () => {
    expect(keptProxyListCounts(undefined)).toBeUndefined();
  });
});
