import { count, eq } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { proxyConfigurations } from '../../db/schema';

export type TProxyOwnerReads = ReturnType<typeof createProxyOwnerReads>;

/**
 * What other modules ask about whose proxies are whose: the account limits' count. services.ts
 * hands these reads over, built over the same handle (the app's, or a transaction's) as the
 * repository that asks.
 */
export function createProxyOwnerReads(db: TDb) {
  return {
    /** How many proxies the account owns: one indexed count over its own rows. */
    async countOwnedBy(userId: string): Promise<number> {
      return (
        await db
          .select({ n: count() })
          .from(proxyConfigurations)
          .where(eq(proxyConfigurations.userId, userId))
      )[0]!.n;
    },
  };
}
