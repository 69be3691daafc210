// The saved servers list in pages (docs/PRODUCT.md#lists-in-pages): the lists' contract (limit,
// keyset cursor, q, total) beside the `after` walk, which answers as before; the caller's rows
// only, everyone's for an admin; on PGlite and on PostgreSQL when TEST_DATABASE_URL is set.
import { translate } from '@portico/shared/i18n/translate';
import { ZSshServerPage } from '@portico/shared/ssh-servers/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newestFirstIds } from '../../../test/support/keyset-order';
import { signedInClient } from '../../../test/support/proxies-test-helpers';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import type { TestClient } from '../../../test/support/test-client';
import { testDatabaseKinds } from '../../../test/support/test-database';
import { sshServers } from '../../db/schema';

describe.each(testDatabaseKinds())('saved servers in pages on %s', (kind) => {
  let t: TTestApp;
  let owner: { client: TestClient; user: { id: string } };
  let other: { client: TestClient; user: { id: string } };
  /** The owner's 7 servers, newest first. */
  let newestFirst: string[];

  beforeAll(async () => {
    t = await createTestApp(kind, { deploy: { workers: 0 } });
    owner = await signedInClient(t, 'user', '198.18.200.1');
    other = await signedInClient(t, 'user', '198.18.200.2');
    const base = Date.now() - 86_400_000;
    // Pairs share a creation time: the id orders them, and the walk must lose neither.
    const rows = Array.from({ length: 7 }, (_, i) => ({
      userId: owner.user.id,
      name: i === 3 ? 'Backup box' : `web-${i}`,
      host: `203.0.113.${10 + i}`,
      username: 'deploy',
      createdAt: new Date(base + Math.floor(i / 2) * 60_000),
    }));
    const inserted = await t.database.db
      .insert(sshServers)
      .values([...rows, { ...rows[0]!, userId: other.user.id, name: 'theirs' }])
      .returning({ id: sshServers.id, userId: sshServers.userId, createdAt: sshServers.createdAt });
    newestFirst = newestFirstIds(inserted.filter((r) => r.userId === owner.user.id));
  });
  afterAll(async () => t?.close());

  const get = async (client: TestClient, query: string) => {
    const answer = await client.request({ method: 'GET', url: `/api/ssh-servers${query}` });
    return { status: answer.statusCode, body: answer.json() };
  };

  it('walks the caller’s servers a page at a time, newest first, each once', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const { status, body } = await get(
        owner.client,
        `?limit=3${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(status).toBe(200);
      const page = ZSshServerPage.parse(body);
      expect(page.total).toBe(7);
      seen.push(...page.items.map((s) => s.id));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(newestFirst);
  });

  it('finds by name, host or user, case aside; `%` is a character, not a wildcard', async () => {
    const byName = ZSshServerPage.parse((await get(owner.client, '?q=BACKUP')).body);
    expect(byName.items.map((s) => s.name)).toEqual(['Backup box']);
    expect(byName.total).toBe(1);
    const byHost = ZSshServerPage.parse((await get(owner.client, '?q=113.15')).body);
    expect(byHost.items.map((s) => s.host)).toEqual(['203.0.113.15']);
    expect(ZSshServerPage.parse((await get(owner.client, '?q=%25')).body).total).toBe(0);
    // Another account's server is never found by the owner.
    expect(ZSshServerPage.parse((await get(owner.client, '?q=theirs')).body).total).toBe(0);
  });

  it('gives an admin everyone’s, and leaves the `after` walk answering as before', async () => {
    const admin = await signedInClient(t, 'admin', '198.18.200.3');
    const all = ZSshServerPage.parse((await get(admin.client, '?limit=200')).body);
    expect(all.total).toBe(8);
    const whole = await get(owner.client, '');
    expect(Object.keys(whole.body).sort()).toEqual(['nextCursor', 'servers']);
    expect(whole.body.servers.map((s: { id: string }) => s.id)).toEqual(newestFirst);
  });

  it('gives an admin one account’s servers by userId; a user only ever their own', async () => {
    const admin = await signedInClient(t, 'admin', '198.18.200.4');
    const owners = ZSshServerPage.parse(
      (await get(admin.client, `?userId=${owner.user.id}&limit=200`)).body,
    );
    expect(owners.total).toBe(7);
    expect(owners.items.map((s) => s.id)).toEqual(newestFirst);
    const others = ZSshServerPage.parse((await get(admin.client, `?userId=${other.user.id}`)).body);
    expect(others.items.map((s) => s.name)).toEqual(['theirs']);
    // A user naming another account gets their own list, never the other's.
    const snooped = ZSshServerPage.parse(
      (await get(owner.client, `?userId=${other.user.id}`)).body,
    );
    expect(snooped.items.map((s) => s.id)).toEqual(newestFirst);
    const bad = await get(admin.client, '?userId=nope');
    expect(bad.status).toBe(400);
    expect(bad.body.issues[0].message).toBe(translate('en', 'validation.invalidId'));
  });

  it('refuses a cursor it did not make, and a limit out of range, in the reader’s language', async () => {
    const forged = Buffer.from(JSON.stringify(['expiry', 'x', 'y'])).toString('base64url');
    const badCursor = await get(owner.client, `?cursor=${forged}`);
    expect(badCursor.status).toBe(400);
    expect(badCursor.body.text).toEqual({ key: 'validation.list.cursor' });
    expect(badCursor.body.message).toBe(translate('en', 'validation.list.cursor'));
    const badLimit = await get(owner.client, '?limit=201');
    expect(badLimit.status).toBe(400);
    expect(badLimit.body.issues[0].message).toBe(translate('en', 'validation.list.limit'));
  });
});
