import { and, desc, eq, type SQL } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { deployments, proxyConfigurations } from '../../db/schema';

export type TProxyCertificateReads = ReturnType<typeof createProxyCertificateReads>;

/**
 * What the certificate watch and the certificate actions ask of the proxies: which serve HTTPS,
 * with what is known of their certificates, and an account's recent runs. services.ts hands
 * these reads over, built over the same handle as the repository that asks.
 */
export function createProxyCertificateReads(db: TDb) {
  return {
    /** When the latest `limit` runs matching `recent` of every proxy `ownerId` owns started. */
    async runStartsOfOwner(ownerId: string, recent: SQL | undefined, limit: number) {
      return db
        .select({ at: deployments.createdAt })
        .from(deployments)
        .innerJoin(proxyConfigurations, eq(proxyConfigurations.id, deployments.configurationId))
        .where(and(eq(proxyConfigurations.userId, ownerId), recent))
        .orderBy(desc(deployments.createdAt))
        .limit(limit);
    },
  };
}
