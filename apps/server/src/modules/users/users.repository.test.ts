import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  type TTestDatabase,
  testDatabaseKinds,
} from '../../../test/support/test-database';
import { transactionOver } from '../../db/transaction';
import { createUserReads } from './user-reads.repository';
import { createUsersRepository, UniqueViolationError } from './users.repository';

describe.each(testDatabaseKinds())('users repository on %s', (kind) => {
  let db: TTestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => db?.drop());

  const newUser = (username: string, email: string) => ({
    username,
    email,
    passwordHash: 'hash',
    role: 'user' as const,
  });

  // The urgent certificate alerts go to the admins: read alone, not with every user.
  it('lists the admins alone', async () => {
    const repo = createUsersRepository(db.database.db);
    const tag = `adm${process.pid}${kind.slice(0, 2)}`;
    const admin = await repo.insert({
      ...newUser(`${tag}a`, `${tag}a@example.test`),
      role: 'admin',
    });
    const member = await repo.insert(newUser(`${tag}m`, `${tag}m@example.test`));
    const admins = await repo.listAdmins();
    expect(admins.every((row) => row.role === 'admin')).toBe(true);
    expect(admins.map((row) => row.id)).toContain(admin.id);
    expect(admins.map((row) => row.id)).not.toContain(member.id);
  });

  // What other modules ask of one account (limits, saved servers), handed over by services.ts.
  it("answers another module's questions about one account, and about a gone one", async () => {
    const tag = `rd${process.pid}${kind.slice(0, 2)}`;
    const user = await createUsersRepository(db.database.db).insert(
      newUser(`${tag}User`, `${tag}@Example.test`),
    );
    const gone = '00000000-0000-4000-8000-000000000000';
    const reads = createUserReads(db.database.db);
    expect(await reads.exists(user.id)).toBe(true);
    expect(await reads.exists(gone)).toBe(false);
    expect(await reads.usernameOf(user.id)).toBe(`${tag}User`);
    expect(await reads.emailOf(user.id)).toBe(`${tag}@example.test`);
    expect([await reads.usernameOf(gone), await reads.emailOf(gone)]).toEqual(['', '']);
    const locked = await transactionOver(
      db.database.db,
      createUserReads,
    )((tx) => Promise.all([tx.lockRow(user.id), tx.lockRow(gone)]));
    expect(locked).toEqual([true, false]);
  });

  it('reports which unique rule an insert broke, ignoring case', async () => {
    const repo = createUsersRepository(db.database.db);
    await repo.insert(newUser('Unique_One', 'one@example.test'));
    await expect(repo.insert(newUser('unique_one', 'two@example.test'))).rejects.toEqual(
      new UniqueViolationError('username'),
    );
    await expect(repo.insert(newUser('unique_two', 'ONE@example.test'))).rejects.toEqual(
      new UniqueViolationError('email'),
    );
  });

  it.each([false, true])(
    'sees a role change through its id cache (cache: %s)',
    async (cacheById) => {
      const repo = createUsersRepository(db.database.db, { cacheById });
      const row = await repo.insert(newUser(`cached_${cacheById}`, `c${cacheById}@example.test`));
      expect((await repo.findById(row.id))?.role).toBe('user');
      await repo.update(row.id, { role: 'admin' });
      expect((await repo.findById(row.id))?.role).toBe('admin');
      // A reader cannot change what the cache holds: its rows are frozen (and shared, not copied).
      const read = await repo.findById(row.id);
      const demote = () => {
        read!.role = 'user';
      };
      if (cacheById) expect(demote).toThrow(TypeError);
      else demote();
      expect((await repo.findById(row.id))?.role).toBe('admin');
    },
  );

  it('does not cache a read that overlapped a role change (a demoted admin stays demoted)', async () => {
    const repo = createUsersRepository(db.database.db, { cacheById: true });
    const row = await repo.insert({
      ...newUser('racing_admin', 'race@example.test'),
      role: 'admin',
    });
    // The read is issued first, so it returns the row as it was before the demotion.
    const overlapping = repo.findById(row.id);
    await repo.update(row.id, { role: 'user' });
    expect((await overlapping)?.role).toBe('admin');
    expect((await repo.findById(row.id))?.role).toBe('user');
  });

  it('a write in a transaction drops the cached row on commit and leaves none stale on rollback', async () => {
    const repo = createUsersRepository(db.database.db, { cacheById: true });
    const transaction = transactionOver(db.database.db, (tx) => repo.within(tx));
    const row = await repo.insert(newUser('in_a_transaction', 'tx@example.test'));
    expect((await repo.findById(row.id))?.role).toBe('user');

    const failure = new Error('the audit row failed');
    await expect(
      transaction(async (users) => {
        await users.update(row.id, { role: 'admin' });
        // Inside, the transaction sees its own write; the cache must not keep it.
        expect((await users.findById(row.id))?.role).toBe('admin');
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect((await repo.findById(row.id))?.role).toBe('user');

    await transaction((users) => users.update(row.id, { role: 'admin' }));
    expect((await repo.findById(row.id))?.role).toBe('admin');
  });
});
