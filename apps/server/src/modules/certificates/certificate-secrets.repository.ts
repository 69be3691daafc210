import { and, eq } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { customCertificates, dnsChallenges } from '../../db/schema';

export type TCertificateSecrets = ReturnType<typeof createCertificateSecrets>;

/**
 * What the key rotation asks of the certificates' sealed values: each sealed anew only if it
 * still holds what was read. services.ts or the CLI hands these over, built over the rotation's
 * transaction.
 */
export function createCertificateSecrets(db: TDb) {
  return {
    /** An uploaded certificate's private key: false when it changed meanwhile. */
    async resealCertificateKey(
      configurationId: string,
      previous: string,
      next: string,
    ): Promise<boolean> {
      const moved = await db
        .update(customCertificates)
        .set({ privateKeyEnc: next })
        .where(
          and(
            eq(customCertificates.configurationId, configurationId),
            eq(customCertificates.privateKeyEnc, previous),
          ),
        )
        .returning({ id: customCertificates.configurationId });
      return moved.length === 1;
    },

    /** A proxy's DNS provider credentials: false when they changed meanwhile. */
    async resealDnsCredentials(
      configurationId: string,
      previous: string,
      next: string,
    ): Promise<boolean> {
      const moved = await db
        .update(dnsChallenges)
        .set({ credentialsEnc: next })
        .where(
          and(
            eq(dnsChallenges.configurationId, configurationId),
            eq(dnsChallenges.credentialsEnc, previous),
          ),
        )
        .returning({ id: dnsChallenges.configurationId });
      return moved.length === 1;
    },
  };
}
