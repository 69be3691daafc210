import { and, eq, sql } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { dnsChallenges, proxyConfigurations, wildcardCertificateUses } from '../../db/schema';

export type TWildcardUsesRepository = ReturnType<typeof createWildcardUsesRepository>;

/** A wildcard proxy as a user of its certificate needs it: whose, where, and whether served. */
export interface TWildcardHolder {
  id: string;
  userId: string;
  domain: string;
  serverIp: string;
  sslConfigured: boolean;
  certificateExpiresAt: Date | null;
  /** It has a DNS challenge: certbot holds (and renews) its certificate by DNS-01. */
  byDns: boolean;
}

const holderColumns = {
  id: proxyConfigurations.id,
  userId: proxyConfigurations.userId,
  domain: proxyConfigurations.domain,
  serverIp: proxyConfigurations.serverIp,
  sslConfigured: proxyConfigurations.sslConfigured,
  certificateExpiresAt: proxyConfigurations.certificateExpiresAt,
  byDns: sql<boolean>`${dnsChallenges.configurationId} is not null`,
};

/**
 * Which proxies are served with another proxy's wildcard certificate
 * (docs/PRODUCT.md#certificates, "A wildcard certificate of the same server"): one row per user
 * proxy, naming its holder. Every read is by a key or a unique index.
 */
export function createWildcardUsesRepository(db: TDb) {
  function holders() {
    return db
      .select(holderColumns)
      .from(proxyConfigurations)
      .leftJoin(dnsChallenges, eq(dnsChallenges.configurationId, proxyConfigurations.id));
  }

  return {
    /** The holder whose certificate the proxy uses; undefined when it uses none. */
    async find(configurationId: string): Promise<TWildcardHolder | undefined> {
      const [row] = await db
        .select(holderColumns)
        .from(wildcardCertificateUses)
        .innerJoin(
          proxyConfigurations,
          eq(proxyConfigurations.id, wildcardCertificateUses.holderId),
        )
        .leftJoin(dnsChallenges, eq(dnsChallenges.configurationId, proxyConfigurations.id))
        .where(eq(wildcardCertificateUses.configurationId, configurationId));
      return row;
    },

    async holder(id: string): Promise<TWildcardHolder | undefined> {
      const [row] = await holders().where(eq(proxyConfigurations.id, id));
      return row;
    },

    /** The proxy named `domain` (the unique index on the lower-cased domain) of this owner. */
    async holderNamed(domain: string, userId: string): Promise<TWildcardHolder | undefined> {
      const [row] = await holders().where(
        and(
          sql`lower(${proxyConfigurations.domain}) = ${domain.toLowerCase()}`,
          eq(proxyConfigurations.userId, userId),
        ),
      );
      return row;
    },

    /** The proxy is served with the holder's certificate from now on (replacing another). */
    async save(configurationId: string, holderId: string): Promise<void> {
      await db
        .insert(wildcardCertificateUses)
        .values({ configurationId, holderId })
        .onConflictDoUpdate({
          target: wildcardCertificateUses.configurationId,
          set: { holderId, createdAt: sql`now()` },
        });
    },

    /** Back to a certificate of its own; false when the proxy used no wildcard. */
    async remove(configurationId: string): Promise<boolean> {
      const removed = await db
        .delete(wildcardCertificateUses)
        .where(eq(wildcardCertificateUses.configurationId, configurationId))
        .returning({ id: wildcardCertificateUses.configurationId });
      return removed.length > 0;
    },
  };
}
