import { and, eq, isNotNull } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { resealer } from '../../db/reseal';
import { customCertificates, dnsChallenges, proxyConfigurations } from '../../db/schema';

export type TProxyCredentials = ReturnType<typeof createProxyCredentials>;

/**
 * What other modules ask of a proxy's way in and its sealed values: the SSH test's target, and
 * for the key rotation every sealed value named by its proxy's domain. services.ts hands these
 * over, built over the same handle (the app's, or a transaction's) as the repository that asks.
 */
export function createProxyCredentials(db: TDb) {
  return {
    /** Where the proxy's server is and what is stored for it, when it is `userId`'s. */
    async sshTargetOwnedBy(userId: string, id: string) {
      const [row] = await db
        .select({
          id: proxyConfigurations.id,
          serverIp: proxyConfigurations.serverIp,
          sshPort: proxyConfigurations.sshPort,
          sshUser: proxyConfigurations.sshUser,
          sshPasswordEnc: proxyConfigurations.sshPasswordEnc,
          sshPasswordTarget: proxyConfigurations.sshPasswordTarget,
          hostKeyFingerprint: proxyConfigurations.hostKeyFingerprint,
          sshServerId: proxyConfigurations.sshServerId,
        })
        .from(proxyConfigurations)
        .where(and(eq(proxyConfigurations.id, id), eq(proxyConfigurations.userId, userId)))
        .limit(1);
      return row;
    },

    /** Every proxy's sealed SSH password, named by its domain. */
    async sealedPasswords() {
      return db
        .select({
          id: proxyConfigurations.id,
          label: proxyConfigurations.domain,
          stored: proxyConfigurations.sshPasswordEnc,
        })
        .from(proxyConfigurations)
        .where(isNotNull(proxyConfigurations.sshPasswordEnc));
    },

    /** Every uploaded certificate's sealed key, named by its proxy's domain. */
    async sealedCertificateKeys() {
      return db
        .select({
          id: customCertificates.configurationId,
          label: proxyConfigurations.domain,
          stored: customCertificates.privateKeyEnc,
        })
        .from(customCertificates)
        .innerJoin(
          proxyConfigurations,
          eq(proxyConfigurations.id, customCertificates.configurationId),
        );
    },

    /** Every proxy's sealed DNS credentials, named by its domain, with the address they are bound to. */
    async sealedDnsCredentials() {
      return db
        .select({
          id: dnsChallenges.configurationId,
          label: proxyConfigurations.domain,
          stored: dnsChallenges.credentialsEnc,
          boundTo: dnsChallenges.serverIp,
        })
        .from(dnsChallenges)
        .innerJoin(proxyConfigurations, eq(proxyConfigurations.id, dnsChallenges.configurationId));
    },

    /** Seals the proxy's password anew, only if it still holds `previous`: false otherwise. */
    resealPassword: resealer(
      db,
      proxyConfigurations,
      proxyConfigurations.id,
      proxyConfigurations.sshPasswordEnc,
    ),
  };
}
