import { isNotNull } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { resealer } from '../../db/reseal';
import { users } from '../../db/schema';

export type TUserSecrets = ReturnType<typeof createUserSecrets>;

/**
 * What the key rotation asks of the accounts' sealed two-factor secrets: each named by its
 * username, sealed anew only if it still holds what was read. The CLI hands these over, built
 * over the rotation's transaction.
 */
export function createUserSecrets(db: TDb) {
  return {
    /** Every account's sealed two-factor secret. */
    async sealedTotpSecrets() {
      return db
        .select({ id: users.id, label: users.username, stored: users.totpSecretEnc })
        .from(users)
        .where(isNotNull(users.totpSecretEnc));
    },

    /** Seals the account's two-factor secret anew, only if it still holds `previous`. */
    resealTotpSecret: resealer(db, users, users.id, users.totpSecretEnc),
  };
}
