import type { TDb } from '../../db/client';
import { resealWhereUnchanged } from '../../db/reseal';
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
      return resealWhereUnchanged(
        db,
        customCertificates,
        customCertificates.configurationId,
        customCertificates.privateKeyEnc,
        { id: configurationId, previous, next },
      );
    },

    /** A proxy's DNS provider credentials: false when they changed meanwhile. */
    async resealDnsCredentials(
      configurationId: string,
      previous: string,
      next: string,
    ): Promise<boolean> {
      return resealWhereUnchanged(
        db,
        dnsChallenges,
        dnsChallenges.configurationId,
        dnsChallenges.credentialsEnc,
        { id: configurationId, previous, next },
      );
    },
  };
}
