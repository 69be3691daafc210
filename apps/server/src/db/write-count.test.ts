import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countingWrites, isPlainRead, writtenTable } from './write-count';

describe('isPlainRead and writtenTable', () => {
  it('takes only a SELECT without a locking clause for a read', () => {
    expect(isPlainRead('select "id" from "users" where "id" = $1')).toBe(true);
    expect(isPlainRead('\n  SELECT 1')).toBe(true);
    for (const write of [
      'insert into "users" values ($1)',
      'update "users" set "role" = $1',
      'delete from "session"',
      'with moved as (update "jobs" set x = 1 returning *) select * from moved',
      'select * from "users" for update',
      'select * from "users" FOR NO KEY UPDATE skip locked',
      'select * from "users" for share',
      'begin',
      'create table t (id int)',
    ]) {
      expect(isPlainRead(write), write).toBe(false);
    }
  });

  it('names the table of a single insert, update or delete, and no other', () => {
    expect(writtenTable('insert into "deployment_logs" ("id") values ($1)')).toBe(
      'deployment_logs',
    );
    expect(writtenTable('update "proxy_configurations" set "status" = $1')).toBe(
      'proxy_configurations',
    );
    expect(writtenTable('delete from "users" where "id" = $1')).toBe('users');
    for (const other of [
      'with x as (delete from "users" returning *) insert into "session" select * from x',
      'update "users" set a = 1; delete from "proxy_configurations"',
      'update pgboss.job set state = $1',
      'truncate "users"',
      'alter table "users" add column x int',
    ]) {
      expect(writtenTable(other), other).toBeUndefined();
    }
  });
});

describe('countingWrites on PGlite', () => {
  let pglite: PGlite;
  beforeAll(async () => {
    pglite = await PGlite.create();
    await pglite.exec(
      'create table users (id int); create table proxy_configurations (id int); create table deployment_logs (id int)',
    );
  });
  afterAll(async () => pglite.close());

  it('moves for every write, before and after it, and never for a read', async () => {
    const { client, writes } = countingWrites(pglite);
    const logs = () => writes.current(['deployment_logs']);
    const proxies = () => writes.current(['proxy_configurations']);
    const start = logs();
    await client.query('select * from deployment_logs');
    expect(logs()).toBe(start);
    // The count moves before the statement runs, and again once it has.
    const seen: number[] = [];
    const query = pglite.query.bind(pglite);
    pglite.query = ((...args: Parameters<typeof query>) => {
      seen.push(logs());
      return query(...args);
    }) as typeof pglite.query;
    try {
      await client.query('insert into "deployment_logs" values (1)');
    } finally {
      pglite.query = query;
    }
    expect(seen).toEqual([start + 1]);
    expect(logs()).toBe(start + 2);
    await client.transaction(async (tx) => {
      await tx.query('select * from deployment_logs');
    });
    expect(logs()).toBe(start + 4);
    await client.exec('select 1');
    expect(logs()).toBe(start + 6);
    // A failed write counts as one too: it may have changed something before it failed.
    await expect(client.query('insert into "missing" values (1)')).rejects.toThrow();
    expect(logs()).toBe(start + 6);
    await expect(client.query('insert into missing values (1)')).rejects.toThrow();
    expect(logs()).toBe(start + 8);
    // Everything else is the instance's own, working on it.
    expect(client.closed).toBe(false);
    const rows = await client.query<{ n: number }>(
      'select count(*)::int as n from deployment_logs',
    );
    expect(rows.rows[0]?.n).toBe(1);
    expect(proxies()).toBe(start + 6);
  });

  it('counts a write against its table and every table it cascades to, not the others', async () => {
    const { client, writes } = countingWrites(pglite);
    const read = () => ({
      logs: writes.current(['deployment_logs']),
      proxies: writes.current(['proxy_configurations']),
      users: writes.current(['users']),
    });
    const before = read();
    await client.query('insert into "deployment_logs" values (2)');
    expect(read()).toEqual({ ...before, logs: before.logs + 2 });
    // A configuration's delete removes its runs and their log lines (the schema's cascade).
    await client.query('delete from "proxy_configurations" where id = 0');
    expect(read()).toEqual({
      logs: before.logs + 4,
      proxies: before.proxies + 2,
      users: before.users,
    });
    // An account's delete removes its configurations, and theirs.
    await client.query('delete from "users" where id = 0');
    expect(read()).toEqual({
      logs: before.logs + 6,
      proxies: before.proxies + 4,
      users: before.users + 2,
    });
    expect(() => writes.current(['no_such_table'])).toThrow(/no_such_table/);
  });
});
