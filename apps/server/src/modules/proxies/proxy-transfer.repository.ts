import { inArray, sql } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { ownedBatchAfter, type TBatchAfter } from '../../db/owned-batches';
import { proxyConfigurations, type TNewProxyConfigurationRow } from '../../db/schema';
import { violatedConstraint } from '../../db/unique-violation';

export type TProxyTransfer = ReturnType<typeof createProxyTransfer>;

const proxiesAfter = ownedBatchAfter(proxyConfigurations);

/**
 * What the transfer (an account's servers and proxies as JSON) asks of the proxies: the
 * account's in batches, the domains already taken, the imported rows written. services.ts hands
 * these over, built over the same handle (the app's, or the import's transaction).
 */
export function createProxyTransfer(db: TDb) {
  return {
    /** The account's proxies oldest first, `limit` after `after`, each with its walk key. */
    async ownedBatch(userId: string, after: TBatchAfter, limit: number) {
      return proxiesAfter(db, userId, after, limit);
    },

    /** Which of these (lower-case) domains some proxy already uses, anyone's, `batch` a query. */
    async domainsTaken(domains: string[], batch: number): Promise<string[]> {
      const taken: string[] = [];
      for (let i = 0; i < domains.length; i += batch) {
        const rows = await db
          .select({ domain: proxyConfigurations.domain })
          .from(proxyConfigurations)
          .where(inArray(sql`lower(${proxyConfigurations.domain})`, domains.slice(i, i + batch)));
        taken.push(...rows.map((r) => r.domain));
      }
      return taken;
    },

    /**
     * Writes the rows, `batch` a statement: false when a domain was taken meanwhile (the unique
     * index refused it; inside a transaction, it is then aborted).
     */
    async insertMany(rows: TNewProxyConfigurationRow[], batch: number): Promise<boolean> {
      try {
        for (let i = 0; i < rows.length; i += batch) {
          await db.insert(proxyConfigurations).values(rows.slice(i, i + batch));
        }
        return true;
      } catch (error) {
        if (violatedConstraint(error) === 'proxy_configurations_domain_key') return false;
        throw error;
      }
    },
  };
}
