// The audit page names its targets with one primary-key lookup per target type on the page,
// never one per row and never over the whole table: with 2,000 proxies and a page of 20 entries
// naming 20 of them, the page takes at most four statements and reads only the rows it names.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertManyProxies } from '../../../test/support/many-proxies';
import { rowsReadRecorder } from '../../../test/support/rows-read';
import {
  createTestDatabase,
  type TTestDatabase,
  testDatabaseKinds,
} from '../../../test/support/test-database';
import { auditLog, users } from '../../db/schema';
import { createAuditRepository } from '../audit/audit.repository';
import { createProxyOwnerReads } from '../proxies/proxy-owners.repository';
import { createServerReads } from '../ssh-servers/server-reads.repository';
import { createUserDirectory } from '../users/user-directory.repository';
import { createAdminRepository } from './admin.repository';

describe.each(testDatabaseKinds())('the audit page’s target names on %s', (kind) => {
  let t: TTestDatabase;
  let userId: string;
  let username: string;
  let proxyIds: string[];
  beforeAll(async () => {
    t = await createTestDatabase(kind);
    username = `auditnames${process.pid}${kind.slice(0, 2)}`;
    const [user] = await t.database.db
      .insert(users)
      .values({ username, email: `${username}@example.com`, passwordHash: 'x' })
      .returning({ id: users.id });
    userId = user!.id;
    proxyIds = await insertManyProxies(t.database.db, userId, 2000, { prefix: username });
    const entry = (targetType: string, targetId: string) => ({
      actorId: userId,
      actorUsername: username,
      action: 'proxy.create',
      targetType,
      targetId,
      targetOwnerId: userId,
    });
    await t.database.db
      .insert(auditLog)
      .values([
        entry('user', userId),
        entry('backup', 'nightly'),
        entry('proxy_configuration', '00000000-0000-4000-8000-000000000000'),
        ...proxyIds.slice(0, 30).map((id) => entry('proxy_configuration', id)),
      ]);
    await t.database.db.execute(sql`analyze`);
  });
  afterAll(async () => {
    await t?.drop();
  });

  it('names a page with one lookup per target type, reading only the rows it names', async () => {
    const recorder = rowsReadRecorder(t.database);
    const repository = createAdminRepository(recorder.db, {
      proxies: createProxyOwnerReads,
      servers: createServerReads,
      audit: createAuditRepository,
      users: createUserDirectory,
    });
    const page = await repository.auditPage({ userId, limit: 20 });
    expect(page).toHaveLength(20);
    // Newest first: the last 20 proxies written, each by its domain.
    expect(page.map((row) => row.targetName)).toEqual(
      Array.from({ length: 20 }, (_, i) => `${username}-${29 - i}.example.com`),
    );
    expect(recorder.statements).toHaveLength(2);
    expect(recorder.rowsRead('proxy_configurations')).toBeLessThanOrEqual(20);

    const rest = await repository.auditPage({ userId, limit: 50, before: page[19]!.id });
    const named = new Map(rest.map((row) => [row.targetId, row.targetName]));
    expect(rest).toHaveLength(13);
    expect(named.get(userId)).toBe(username);
    expect(named.get('nightly')).toBeNull();
    expect(named.get('00000000-0000-4000-8000-000000000000')).toBeNull();
    expect(named.get(proxyIds[0]!)).toBe(`${username}-0.example.com`);
    // The page itself, the proxies, the user: never one statement per row.
    expect(recorder.statements).toHaveLength(5);
  });
});
