import { and, count, desc, eq } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { apiTokens, type TApiTokenRow } from '../../db/schema';

export type TTokensRepository = ReturnType<typeof createTokensRepository>;

export interface TNewToken {
  userId: string;
  name: string;
  scope: 'read' | 'manage';
  tokenHash: string;
  hint: string;
  expiresAt: Date | null;
}

export function createTokensRepository(db: TDb) {
  return {
    async insert(token: TNewToken): Promise<TApiTokenRow> {
      const rows = await db.insert(apiTokens).values(token).returning();
      return rows[0]!;
    },

    async listForUser(userId: string): Promise<TApiTokenRow[]> {
      return db
        .select()
        .from(apiTokens)
        .where(eq(apiTokens.userId, userId))
        .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
    },

    async findByHash(tokenHash: string): Promise<TApiTokenRow | undefined> {
      const rows = await db
        .select()
        .from(apiTokens)
        .where(eq(apiTokens.tokenHash, tokenHash))
        .limit(1);
      return rows[0];
    },

    /** How many tokens the account holds (the account limits): one indexed count. */
    async countOwnedBy(userId: string): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(apiTokens)
        .where(eq(apiTokens.userId, userId));
      return row!.n;
    },

    /** Deletes one of the user's tokens; undefined when the user has no token with that id. */
    async remove(userId: string, id: string): Promise<TApiTokenRow | undefined> {
      const rows = await db
        .delete(apiTokens)
        .where(and(eq(apiTokens.id, id), eq(apiTokens.userId, userId)))
        .returning();
      return rows[0];
    },

    /** Deletes every token of the user; how many there were. */
    async removeAllForUser(userId: string): Promise<number> {
      const rows = await db
        .delete(apiTokens)
        .where(eq(apiTokens.userId, userId))
        .returning({ id: apiTokens.id });
      return rows.length;
    },

    async touch(id: string, at: Date): Promise<void> {
      await db.update(apiTokens).set({ lastUsedAt: at }).where(eq(apiTokens.id, id));
    },
  };
}
