import { eq } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { dnsChallenges, type TDnsChallengeRow } from '../../db/schema';

export type TDnsChallengesRepository = ReturnType<typeof createDnsChallengesRepository>;

/** The proxies' DNS-01 settings, one per proxy (docs/PRODUCT.md#wildcards-and-dns-01). */
export function createDnsChallengesRepository(db: TDb) {
  return {
    async find(configurationId: string): Promise<TDnsChallengeRow | undefined> {
      const [row] = await db
        .select()
        .from(dnsChallenges)
        .where(eq(dnsChallenges.configurationId, configurationId));
      return row;
    },

    /** Back to HTTP-01; false when the proxy had no DNS challenge. */
    async remove(configurationId: string): Promise<boolean> {
      const removed = await db
        .delete(dnsChallenges)
        .where(eq(dnsChallenges.configurationId, configurationId))
        .returning({ id: dnsChallenges.configurationId });
      return removed.length > 0;
    },

    /** Stores the proxy's DNS challenge, replacing the one entered before. */
    async save(row: TDnsChallengeRow) {
      const { configurationId, ...values } = row;
      await db
        .insert(dnsChallenges)
        .values(row)
        .onConflictDoUpdate({ target: dnsChallenges.configurationId, set: values });
    },
  };
}
