import { eq } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { users } from '../../db/schema';

export type TUserReads = ReturnType<typeof createUserReads>;

/**
 * What other modules ask about one account by its id: whether it exists (the account limits,
 * which also lock its row), its e-mail and its name (the saved servers). services.ts hands these
 * over, built over the asker's handle (the app's, or a transaction's).
 */
export function createUserReads(db: TDb) {
  /** One text column of the account's row; empty when it is gone. */
  const columnOf = async (userId: string, column: 'email' | 'username'): Promise<string> => {
    const [row] = await db
      .select({ value: users[column] })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1);
    return row?.value ?? '';
  };
  return {
    async exists(userId: string): Promise<boolean> {
      return (await db.select({ id: users.id }).from(users).where(eq(users.id, userId))).length > 0;
    },

    /**
     * Locks the account's row until the transaction ends (the limits' count and insert wait
     * for each other behind it). Answers whether the account exists.
     */
    async lockRow(userId: string): Promise<boolean> {
      const rows = await db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.id, userId))
        .for('update');
      return rows.length > 0;
    },

    /** The account's e-mail address; empty when it is gone. */
    emailOf: (userId: string) => columnOf(userId, 'email'),

    /** The account's name; empty when it is gone. */
    usernameOf: (userId: string) => columnOf(userId, 'username'),
  };
}
