import { and, asc, desc, eq, gt, inArray, ne, type SQL } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { certificateStatus, deployments, proxyConfigurations, users } from '../../db/schema';

export type TProxyCertificateReads = ReturnType<typeof createProxyCertificateReads>;

/**
 * What the certificate watch and the certificate actions ask of the proxies: which serve HTTPS,
 * with what is known of their certificates, and an account's recent runs. services.ts hands
 * these reads over, built over the same handle as the repository that asks.
 */
export function createProxyCertificateReads(db: TDb) {
  function watchedWhere(also: SQL | undefined) {
    return db
      .select({ proxy: proxyConfigurations, status: certificateStatus })
      .from(proxyConfigurations)
      .leftJoin(certificateStatus, eq(certificateStatus.configurationId, proxyConfigurations.id))
      .where(
        and(
          eq(proxyConfigurations.sslConfigured, true),
          ne(proxyConfigurations.status, 'deploying'),
          also,
        ),
      )
      .$dynamic();
  }

  return {
    /** The certificate rows of those of `configurationIds` that are `userId`'s and serve HTTPS. */
    async certificatesOwnedBy(userId: string, configurationIds: string[]) {
      const rows = await db
        .select({ status: certificateStatus })
        .from(certificateStatus)
        .innerJoin(
          proxyConfigurations,
          eq(proxyConfigurations.id, certificateStatus.configurationId),
        )
        .where(
          and(
            inArray(certificateStatus.configurationId, configurationIds),
            eq(proxyConfigurations.userId, userId),
            eq(proxyConfigurations.sslConfigured, true),
          ),
        );
      return rows.map((row) => row.status);
    },

    /** Proxies whose site serves HTTPS and no run is changing right now. */
    async watched(configurationId?: string) {
      return watchedWhere(
        configurationId ? eq(proxyConfigurations.id, configurationId) : undefined,
      );
    },

    /** The sweep's next batch: proxies `watched` would give, in id order after `afterId`. */
    async watchedBatch(afterId: string | undefined, limit: number) {
      return watchedWhere(afterId ? gt(proxyConfigurations.id, afterId) : undefined)
        .orderBy(asc(proxyConfigurations.id))
        .limit(limit);
    },

    /** Every HTTPS proxy with its owner (the admin's list). */
    async httpsWithOwners() {
      return db
        .select({
          proxy: proxyConfigurations,
          status: certificateStatus,
          owner: { id: users.id, username: users.username, email: users.email },
        })
        .from(proxyConfigurations)
        .innerJoin(users, eq(users.id, proxyConfigurations.userId))
        .leftJoin(certificateStatus, eq(certificateStatus.configurationId, proxyConfigurations.id))
        .where(eq(proxyConfigurations.sslConfigured, true));
    },

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
