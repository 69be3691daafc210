import { and, count, eq, isNull } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { recoveryCodes } from '../../db/schema';

export type TRecoveryCodesRepository = ReturnType<typeof createRecoveryCodesRepository>;

export function createRecoveryCodesRepository(db: TDb) {
  return {
    /** Replaces the user's codes with these (hashes only), in one transaction. */
    async replace(userId: string, codeHashes: string[]): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
        if (codeHashes.length > 0) {
          await tx
            .insert(recoveryCodes)
            .values(codeHashes.map((codeHash) => ({ userId, codeHash })));
        }
      });
    },

    async removeAll(userId: string): Promise<void> {
      await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    },

    /**
     * Marks an unused code used; true only for the one request that did. One conditional UPDATE:
     * two sign-ins racing with the same code cannot both succeed.
     */
    async use(userId: string, codeHash: string): Promise<boolean> {
      const rows = await db
        .update(recoveryCodes)
        .set({ usedAt: new Date() })
        .where(
          and(
            eq(recoveryCodes.userId, userId),
            eq(recoveryCodes.codeHash, codeHash),
            isNull(recoveryCodes.usedAt),
          ),
        )
        .returning({ id: recoveryCodes.id });
      return rows.length === 1;
    },

    async countUnused(userId: string): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(recoveryCodes)
        .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
      return Number(row?.n ?? 0);
    },
  };
}
