// The admin's users search: "contains" over the name and e-mail, whatever the case of either
// side, on the lower-cased users.search_text (migration 0024) with one plain LIKE, as the proxy
// lists search (proxy-search.test.ts). The statement sent is read here, so a return to ILIKE
// (which folds the case of every row at every search) fails.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsReadRecorder } from '../../../test/support/rows-read';
import {
  createTestDatabase,
  type TTestDatabase,
  testDatabaseKinds,
} from '../../../test/support/test-database';
import { users } from '../../db/schema';
import { createAuditRepository } from '../audit/audit.repository';
import { createProxyOwnerReads } from '../proxies/proxy-owners.repository';
import { createServerReads } from '../ssh-servers/server-reads.repository';
import { createUserDirectory } from '../users/user-directory.repository';
import { createAdminRepository } from './admin.repository';

describe.each(testDatabaseKinds())('the admin’s users search on %s', (kind) => {
  let t: TTestDatabase;
  const tag = `${process.pid}${kind.slice(0, 2)}`;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
    await t.database.db.insert(users).values(
      ['Ab_Cd', 'AbxCd', 'Plain'].map((name) => ({
        username: `${name}${tag}`,
        email: `${name.toLowerCase()}${tag}@Mail.example`.toLowerCase(),
        passwordHash: 'x',
      })),
    );
  });
  afterAll(async () => {
    await t?.drop();
  });

  const search = async (q: string) => {
    const recorder = rowsReadRecorder(t.database);
    const page = await createAdminRepository(recorder.db, {
      proxies: createProxyOwnerReads,
      servers: createServerReads,
      audit: createAuditRepository,
      users: createUserDirectory,
    }).usersPage({
      q,
      limit: 50,
    });
    return {
      names: page.rows.map((row) => row.username).sort(),
      total: page.total,
      statements: recorder.statements.join('\n'),
    };
  };

  it('finds by any part of the name or the e-mail, in any case, with one LIKE', async () => {
    const byName = await search(`ABXCD${tag}`);
    expect(byName.names).toEqual([`AbxCd${tag}`]);
    expect(byName.statements).toMatch(/"search_text" like \$/);
    expect(byName.statements).not.toMatch(/ilike|lower\(/i);
    expect((await search(`plain${tag}@MAIL.Example`)).names).toEqual([`Plain${tag}`]);
    expect((await search(`${tag}@mail.example`)).total).toBe(3);
  });

  it('takes % and _ as the characters they are', async () => {
    // "_" would match any one character, so AbxCd too.
    expect((await search(`b_cd${tag}`)).names).toEqual([`Ab_Cd${tag}`]);
    expect((await search(`%${tag}`)).total).toBe(0);
  });

  it('follows a change of the name: the text is the row’s own, written with it', async () => {
    await t.database.db
      .update(users)
      .set({ username: `Renamed${tag}` })
      .where(eq(users.username, `Plain${tag}`));
    expect((await search(`RENAMED${tag}`)).names).toEqual([`Renamed${tag}`]);
  });
});
