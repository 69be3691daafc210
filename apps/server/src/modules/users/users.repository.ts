import { and, asc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { type TUserRow, users } from '../../db/schema';
import { violatedConstraint } from '../../db/unique-violation';

export type TUsersRepository = ReturnType<typeof usersTable>;

export interface TNewUser {
  username: string;
  email: string;
  passwordHash: string;
  role: 'user' | 'admin';
}

/** Which unique rule an insert broke, read from PostgreSQL's unique-violation error. */
export type TUniqueViolation = 'username' | 'email';

export class UniqueViolationError extends Error {
  constructor(readonly field: TUniqueViolation) {
    super(`duplicate ${field}`);
    this.name = 'UniqueViolationError';
  }
}

function uniqueViolationOf(error: unknown): TUniqueViolation | undefined {
  const constraint = violatedConstraint(error);
  if (constraint === 'users_username_lower_key') return 'username';
  if (constraint === 'users_email_key') return 'email';
  return undefined;
}

/** What an update may change; every write goes through here so the by-id cache forgets the row. */
export type TUserChanges = Partial<
  Pick<
    TUserRow,
    | 'role'
    | 'passwordHash'
    | 'email'
    | 'firstName'
    | 'lastName'
    | 'totpSecretEnc'
    | 'totpEnabledAt'
    | 'totpLastStep'
    | 'language'
  >
>;

export interface TUsersRepositoryOptions {
  /**
   * Remember rows by id (every signed-in request loads its user). Only correct when this process
   * is the sole writer of the table: true on PGlite, whose data-dir lock guarantees it (the CLI
   * cannot run beside the server); false on PostgreSQL, shared by instances and the CLI.
   */
  cacheById?: boolean;
}

const CACHE_LIMIT = 10_000;

/** The by-id cache one app shares between its repository and the ones built over transactions. */
interface TUsersCache {
  byId: Map<string, Readonly<TUserRow>> | null;
  // Bumped before and after every write: a read that overlapped a write (and may hold the row as
  // it was) is not cached, so a demoted admin never stays admin in this process.
  writes: number;
}

/**
 * The users table for the app. `within(tx)` is the same table inside a transaction
 * (db/transaction.ts): its writes drop the row from the shared cache like any write, and its
 * reads neither use nor fill the cache, so a row the transaction wrote and then rolled back is
 * never remembered. Outside reads wait for the transaction on PGlite (one session), and no cache
 * exists on PostgreSQL, so a cached row is always a committed one.
 */
export function createUsersRepository(db: TDb, options: TUsersRepositoryOptions = {}) {
  // Rows are kept frozen and handed out as they are (no copy per request): nothing may change one.
  const cache: TUsersCache = {
    byId: options.cacheById ? new Map<string, Readonly<TUserRow>>() : null,
    writes: 0,
  };
  return {
    ...usersTable(db, cache, false),
    within: (tx: TDb): TUsersRepository => usersTable(tx, cache, true),
  };
}

function usersTable(db: TDb, cache: TUsersCache, inTransaction: boolean) {
  const byId = cache.byId;

  async function writing<T>(id: string, work: () => Promise<T>): Promise<T> {
    cache.writes += 1;
    byId?.delete(id);
    try {
      return await work();
    } finally {
      cache.writes += 1;
      byId?.delete(id);
    }
  }

  return {
    async findById(id: string): Promise<TUserRow | undefined> {
      const shared = inTransaction ? null : byId;
      const hit = shared?.get(id);
      if (hit) return hit;
      const writesBefore = cache.writes;
      const rows = await db.select().from(users).where(eq(users.id, id)).limit(1);
      if (shared && rows[0] && cache.writes === writesBefore) {
        if (shared.size > CACHE_LIMIT) shared.clear();
        shared.set(id, Object.freeze(rows[0]));
      }
      return rows[0];
    },

    async findByUsername(username: string): Promise<TUserRow | undefined> {
      const rows = await db
        .select()
        .from(users)
        .where(sql`lower(${users.username}) = ${username.toLowerCase()}`)
        .limit(1);
      return rows[0];
    },

    async findByEmail(email: string): Promise<TUserRow | undefined> {
      const rows = await db
        .select()
        .from(users)
        .where(eq(users.email, email.toLowerCase()))
        .limit(1);
      return rows[0];
    },

    async insert(user: TNewUser): Promise<TUserRow> {
      try {
        const rows = await db
          .insert(users)
          .values({ ...user, email: user.email.toLowerCase() })
          .returning();
        return rows[0]!;
      } catch (error) {
        const field = uniqueViolationOf(error);
        if (field) throw new UniqueViolationError(field);
        throw error;
      }
    },

    async update(id: string, changes: TUserChanges): Promise<TUserRow | undefined> {
      return writing(id, async () => {
        try {
          const rows = await db
            .update(users)
            .set({
              ...changes,
              ...(changes.email === undefined ? {} : { email: changes.email.toLowerCase() }),
              updatedAt: new Date(),
            })
            .where(eq(users.id, id))
            .returning();
          return rows[0];
        } catch (error) {
          const field = uniqueViolationOf(error);
          if (field) throw new UniqueViolationError(field);
          throw error;
        }
      });
    },

    /**
     * Records `step` as the last accepted two-factor step, only if it is later than the one
     * recorded: false means this code (or a later one) was already used, so it is a replay. One
     * conditional UPDATE, so two requests racing with the same code cannot both win.
     */
    async claimTotpStep(id: string, step: number): Promise<boolean> {
      return writing(id, async () => {
        const rows = await db
          .update(users)
          .set({ totpLastStep: step })
          .where(
            and(eq(users.id, id), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))),
          )
          .returning({ id: users.id });
        return rows.length === 1;
      });
    },

    async list(): Promise<TUserRow[]> {
      return db.select().from(users).orderBy(asc(users.createdAt), asc(users.username));
    },

    /** The admins alone (the alerts that go to them): a few rows, whatever the users count. */
    async listAdmins(): Promise<TUserRow[]> {
      return db
        .select()
        .from(users)
        .where(eq(users.role, 'admin'))
        .orderBy(asc(users.createdAt), asc(users.username));
    },
  };
}
