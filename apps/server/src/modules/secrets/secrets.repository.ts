import { and, eq, isNotNull } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { proxyConfigurations } from '../../db/schema';

/** One encrypted value as stored, with what names it (its row id is its additional data). */
export interface TStoredSecret {
  id: string;
  domain: string;
  stored: string;
}

export class SecretChangedDuringRotationError extends Error {
  constructor(readonly id: string) {
    super(`The secret of configuration ${id} changed while the key was being rotated.`);
    this.name = 'SecretChangedDuringRotationError';
  }
}

export type TSecretsRepository = ReturnType<typeof createSecretsRepository>;

/** Every column that holds a secret encrypted with the key file: today, the SSH passwords. */
export function createSecretsRepository(db: TDb) {
  return {
    async listProxyPasswords(): Promise<TStoredSecret[]> {
      const rows = await db
        .select({
          id: proxyConfigurations.id,
          domain: proxyConfigurations.domain,
          stored: proxyConfigurations.sshPasswordEnc,
        })
        .from(proxyConfigurations)
        .where(isNotNull(proxyConfigurations.sshPasswordEnc));
      return rows.map((r) => ({ id: r.id, domain: r.domain, stored: r.stored! }));
    },

    /**
     * Replaces every value in one transaction, each only if it still holds what was read: all
     * rows move to the new key or none do.
     */
    async replaceProxyPasswords(
      changes: { id: string; previous: string; next: string }[],
    ): Promise<void> {
      await db.transaction(async (tx) => {
        for (const change of changes) {
          const updated = await tx
            .update(proxyConfigurations)
            .set({ sshPasswordEnc: change.next })
            .where(
              and(
                eq(proxyConfigurations.id, change.id),
                eq(proxyConfigurations.sshPasswordEnc, change.previous),
              ),
            )
            .returning({ id: proxyConfigurations.id });
          if (updated.length !== 1) throw new SecretChangedDuringRotationError(change.id);
        }
      });
    },
  };
}
