import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TTestDatabase } from '../../test/support/test-database';
import { referencesFirst, rowInserter, tablePages } from './table-copy';

describe('referencesFirst', () => {
  it('puts every table after the tables it references; a reference to itself does not count', () => {
    const order = referencesFirst(
      ['deployment_logs', 'deployments', 'proxy_configurations', 'users', 'audit_log'],
      [
        ['deployment_logs', 'deployments'],
        ['deployments', 'proxy_configurations'],
        ['proxy_configurations', 'users'],
        ['audit_log', 'users'],
        ['users', 'users'],
      ],
    );
    expect(order).toEqual([
      'users',
      'audit_log',
      'proxy_configurations',
      'deployments',
      'deployment_logs',
    ]);
  });

  it('refuses a loop it cannot order', () => {
    expect(() =>
      referencesFirst(
        ['a', 'b'],
        [
          ['a', 'b'],
          ['b', 'a'],
        ],
      ),
    ).toThrow('reference each other');
  });
});

describe('rowInserter', () => {
  let testDb: TTestDatabase;
  beforeAll(async () => {
    testDb = await createTestDatabase('pglite', { migrated: false });
    const { db } = testDb.database;
    for (const table of ['notes', 'tags']) {
      await db.execute(
        sql.raw(`create table ${table} (id integer generated always as identity primary key,
          body text not null, upper_body text generated always as (upper(body)) stored)`),
      );
    }
  });
  afterAll(() => testDb.drop());

  it("asks the catalog for a table's columns once, however many pages it writes", async () => {
    const { db } = testDb.database;
    const dialect = new PgDialect();
    const statements: string[] = [];
    const counted = new Proxy(db, {
      get(target, key, receiver) {
        if (key !== 'execute') return Reflect.get(target, key, receiver);
        return (query: SQL) => {
          statements.push(dialect.sqlToQuery(query).sql);
          return target.execute(query);
        };
      },
    });
    const insertRows = rowInserter(counted);
    const page = (from: number) =>
      Array.from({ length: 3 }, (_, i) => JSON.stringify({ id: from + i, body: `n${from + i}` }));
    await insertRows('notes', page(1));
    await insertRows('notes', page(4));
    await insertRows('tags', page(1));
    await insertRows('notes', page(7));
    await insertRows('notes', []);

    const catalogReads = statements.filter((s) => s.includes('information_schema.columns'));
    expect(catalogReads).toHaveLength(2);
    expect(statements.filter((s) => s.startsWith('insert into'))).toHaveLength(4);
    const notes = [];
    for await (const rows of tablePages(db, 'notes')) notes.push(...rows.map((r) => JSON.parse(r)));
    expect(notes.map((n) => [n.id, n.upper_body])).toEqual(
      Array.from({ length: 9 }, (_, i) => [i + 1, `N${i + 1}`]),
    );
  });
});
