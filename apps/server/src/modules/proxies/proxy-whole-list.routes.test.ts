// The whole list (no list parameters) read in parts of LIST_PART rows: every proxy of the
// caller once, in the pages' order, across the parts' boundaries where creation times tie, and
// for two callers at once (whose first parts are read in one statement); the admin's list of
// everyone's the same way; on PGlite and on PostgreSQL when TEST_DATABASE_URL is set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namedClient } from '../../../test/support/admin-test-helpers';
import { newestFirstIds } from '../../../test/support/keyset-order';
import { signedInClient } from '../../../test/support/proxies-test-helpers';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import type { TestClient } from '../../../test/support/test-client';
import { testDatabaseKinds } from '../../../test/support/test-database';
import { LIST_PART } from '../../db/proxy-lists';
import { proxyConfigurations } from '../../db/schema';

const DAY = 24 * 60 * 60 * 1000;

describe.each(testDatabaseKinds())('the whole proxy list in parts on %s', (kind) => {
  let t: TTestApp;
  const callers: { client: TestClient; user: { id: string }; ids: string[] }[] = [];
  const everyone: { id: string; createdAt: Date }[] = [];

  /** `n` proxies of the user; each three share a creation time, so ties cross the parts' ends. */
  async function insert(userId: string, n: number): Promise<string[]> {
    const base = Date.now() - 1000 * DAY;
    const rows = Array.from({ length: n }, (_, i) => ({
      userId,
      domain: `whole${process.pid}u${userId.slice(0, 8)}n${i}.example.com`,
      serverIp: '203.0.113.10',
      email: 'owner@example.com',
      targetServer: 'http://10.0.0.1:3000',
      createdAt: new Date(base + Math.floor(i / 3) * 60_000),
      updatedAt: new Date(base),
    }));
    const inserted = await t.database.db
      .insert(proxyConfigurations)
      .values(rows)
      .returning({ id: proxyConfigurations.id, createdAt: proxyConfigurations.createdAt });
    everyone.push(...inserted);
    return newestFirstIds(inserted);
  }

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const n of [2 * LIST_PART + 1, LIST_PART + 1, LIST_PART]) {
      const caller = await signedInClient(t);
      callers.push({ ...caller, ids: await insert(caller.user.id, n) });
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers every proxy of each caller once, newest first, three callers at once', async () => {
    const lists = await Promise.all(
      callers.map(async ({ client }) => {
        const response = await client.request({
          method: 'GET',
          url: '/api/user/proxy-configurations',
        });
        expect(response.statusCode).toBe(200);
        return response.json() as { id: string; userId: string }[];
      }),
    );
    lists.forEach((list, i) => {
      const caller = callers[i]!;
      expect(list.every((p) => p.userId === caller.user.id)).toBe(true);
      expect(list.map((p) => p.id)).toEqual(caller.ids);
    });
  });

  it("answers the admin every user's proxies once, newest first, with their owners", async () => {
    const { client } = await namedClient(t, 'wholeadmin', 'admin');
    const response = await client.request({ method: 'GET', url: '/api/admin/all-proxies' });
    expect(response.statusCode).toBe(200);
    const list = response.json() as { id: string; userId: string; key?: unknown }[];
    // Three callers' 2,001 proxies, created at times that tie across the parts' ends.
    expect(list.map((p) => p.id)).toEqual(newestFirstIds(everyone));
    const ownerOf = new Map(callers.flatMap((c) => c.ids.map((id) => [id, c.user.id])));
    expect(list.every((p) => p.userId === ownerOf.get(p.id))).toBe(true);
    expect(list.some((p) => 'key' in p)).toBe(false);
  });
});
