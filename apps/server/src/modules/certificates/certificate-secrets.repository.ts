import type { TDb } from '../../db/client';
import { resealer } from '../../db/reseal';
import { customCertificates, dnsChallenges } from '../../db/schema';

export type TCertificateSecrets = ReturnType<typeof createCertificateSecrets>;

/**
 * What the key rotation asks of the certificates' sealed values: each sealed anew only if it
 * still holds what was read. services.ts or the CLI hands these over, built over the rotation's
 * transaction.
 */
export function createCertificateSecrets(db: TDb) {
  return {
    /** An uploaded certificate's private key, by its proxy: false when it changed meanwhile. */
    resealCertificateKey: resealer(
      db,
      customCertificates,
      customCertificates.configurationId,
      customCertificates.privateKeyEnc,
    ),
    /** A proxy's DNS provider credentials: false when they changed meanwhile. */
    resealDnsCredentials: resealer(
      db,
      dnsChallenges,
      dnsChallenges.configurationId,
      dnsChallenges.credentialsEnc,
    ),
  };
}
