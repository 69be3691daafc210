// A list search: "contains" over domain, target and server address, whatever the case of
// either side, on the lower-cased search_text column (migration 0021) with a plain LIKE. ILIKE
// on PGlite folds the case of every row at every search, ~40× the cost of LIKE; the statement
// the list sends is read here, so a return to ILIKE (or a lower() per row) fails, and so does a
// count that reads the rows again.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertManyProxies } from '../../../test/support/many-proxies';
import { rowsReadRecorder } from '../../../test/support/rows-read';
import {
  createTestDatabase,
  type TTestDatabase,
  testDatabaseKinds,
} from '../../../test/support/test-database';
import { proxyConfigurations, users } from '../../db/schema';
import { createProxiesRepository } from './proxies.repository';

describe.each(testDatabaseKinds())('a search of the list on %s', (kind) => {
  let t: TTestDatabase;
  let userId: string;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
    const [user] = await t.database.db
      .insert(users)
      .values({ username: 'searcher', email: 'searcher@example.com', passwordHash: 'x' })
      .returning({ id: users.id });
    userId = user!.id;
    await insertManyProxies(t.database.db, userId, 300, {
      prefix: 'search',
      shape: (i) =>
        i === 7
          ? { targetServer: 'http://10.0.0.1:3000/Admin_Panel', serverIp: 'Host.Example' }
          : {},
    });
    await t.database.db.execute(sql`analyze`);
  });
  afterAll(async () => {
    await t?.drop();
  });

  const search = async (q: string) => {
    const recorder = rowsReadRecorder(t.database);
    const page = await createProxiesRepository(recorder.db).pageByUser(
      userId,
      { q, limit: 50 },
      new Date(),
    );
    return {
      domains: page.rows.map((row) => row.domain),
      statements: recorder.statements,
      rowsRead: recorder.rowsRead('proxy_configurations'),
    };
  };

  it('finds by any part of the domain, in any case, with one LIKE on the lower-cased text', async () => {
    const found = await search('SEARCH-287.Exam');
    expect(found.domains).toEqual(['search-287.example.com']);
    const reads = found.statements.join('\n');
    expect(reads).toMatch(/"search_text" like \$/);
    expect(reads).not.toMatch(/ilike|lower\(/i);
  });

  it('reads the caller’s rows once: the counts tell the few found, the page reads them by key', async () => {
    // No index serves a contains-match: the grouped counts read every row of the caller's, and
    // name the rows they found when they are few; the page reads only those.
    const found = await search('search-287.');
    expect(found.domains).toEqual(['search-287.example.com']);
    expect(found.statements).toHaveLength(2);
    expect(found.rowsRead).toBeLessThanOrEqual(300 + 1);
    expect(found.statements[1]).toMatch(/"id" in \(/);
  });

  it('reads them twice when the search finds more than it names, in the same order', async () => {
    const found = await search('search-2');
    // search-2, search-20…29, search-200…299: 111 found, more than a page.
    expect(found.domains).toHaveLength(50);
    expect(found.statements[1]).toMatch(/"id" in \(/);
    const broad = await search('search-');
    expect(broad.domains).toHaveLength(50);
    expect(broad.statements[1]).not.toMatch(/"id" in \(/);
    expect(broad.rowsRead).toBeLessThanOrEqual(2 * 300);
    // Newest first either way: the first of the broad walk that matches is the first found.
    expect(broad.domains.filter((d) => d.startsWith('search-2'))[0]).toBe(found.domains[0]);
  });

  it('finds by the target and the server address as typed, whatever their case', async () => {
    expect((await search('admin_panel')).domains).toEqual(['search-7.example.com']);
    expect((await search('host.EXAMPLE')).domains).toEqual(['search-7.example.com']);
  });

  it('takes % and _ as the characters they are', async () => {
    expect((await search('%')).domains).toEqual([]);
    // "_" would match any one character; here it matches only the underscore of proxy 7.
    expect((await search('n_p')).domains).toEqual(['search-7.example.com']);
  });

  it('follows a change of the target: the text is the row’s own, written with it', async () => {
    const [row] = await t.database.db
      .select({ id: proxyConfigurations.id })
      .from(proxyConfigurations)
      .where(sql`${proxyConfigurations.domain} = 'search-11.example.com'`);
    await t.database.db
      .update(proxyConfigurations)
      .set({ targetServer: 'http://Renamed.Internal:8080' })
      .where(sql`${proxyConfigurations.id} = ${row!.id}`);
    expect((await search('renamed.internal')).domains).toEqual(['search-11.example.com']);
  });
});
