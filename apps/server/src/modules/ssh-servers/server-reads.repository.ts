import { and, count, eq, inArray, isNotNull, or } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { ownedBatchAfter, type TBatchAfter } from '../../db/owned-batches';
import { resealWhereUnchanged } from '../../db/reseal';
import { sshServers, type TNewSshServerRow, type TSshServerRow } from '../../db/schema';
import type { TServerSecretField } from './credential-binding';

export type TServerReads = ReturnType<typeof createServerReads>;

const serversAfter = ownedBatchAfter(sshServers);

const SEALED_COLUMNS = {
  password: sshServers.passwordEnc,
  privateKey: sshServers.privateKeyEnc,
  passphrase: sshServers.passphraseEnc,
  sudoPassword: sshServers.sudoPasswordEnc,
};

/**
 * What other modules ask of the saved servers: an account's count (limits), the names of audit
 * targets (admin), an account's own server (the SSH test), its servers in batches and the
 * imported ones written (transfer), every sealed value and its reseal (the key rotation).
 * services.ts hands these over, built over the same handle (the app's, or a transaction's) as
 * the repository that asks.
 */
export function createServerReads(db: TDb) {
  return {
    /** How many servers the account holds: one indexed count (`ssh_servers_user_idx`). */
    async countOwnedBy(userId: string): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(sshServers)
        .where(eq(sshServers.userId, userId));
      return row!.n;
    },

    /** Each of these servers' names, by id (audit targets). */
    async namesOf(ids: string[]): Promise<{ id: string; name: string }[]> {
      return db
        .select({ id: sshServers.id, name: sshServers.name })
        .from(sshServers)
        .where(inArray(sshServers.id, ids));
    },

    /** The server when it belongs to `userId`; undefined otherwise. */
    async ownedBy(userId: string, id: string): Promise<TSshServerRow | undefined> {
      const [row] = await db
        .select()
        .from(sshServers)
        .where(and(eq(sshServers.id, id), eq(sshServers.userId, userId)))
        .limit(1);
      return row;
    },

    /** The account's servers oldest first, `limit` after `after`, each with its walk key. */
    async ownedBatch(userId: string, after: TBatchAfter, limit: number) {
      return serversAfter(db, userId, after, limit);
    },

    /** Writes the rows, `batch` a statement. */
    async insertMany(rows: TNewSshServerRow[], batch: number): Promise<void> {
      for (let i = 0; i < rows.length; i += batch) {
        await db.insert(sshServers).values(rows.slice(i, i + batch));
      }
    },

    /** Every server holding a sealed value, with its target (the values' additional data). */
    async sealedSecrets() {
      return db
        .select({
          id: sshServers.id,
          label: sshServers.name,
          host: sshServers.host,
          port: sshServers.port,
          username: sshServers.username,
          password: sshServers.passwordEnc,
          privateKey: sshServers.privateKeyEnc,
          passphrase: sshServers.passphraseEnc,
          sudoPassword: sshServers.sudoPasswordEnc,
        })
        .from(sshServers)
        .where(
          or(
            isNotNull(sshServers.passwordEnc),
            isNotNull(sshServers.privateKeyEnc),
            isNotNull(sshServers.passphraseEnc),
            isNotNull(sshServers.sudoPasswordEnc),
          ),
        );
    },

    /** Seals one of the server's values anew, only if it still holds `previous`: false otherwise. */
    async resealSecret(
      id: string,
      field: TServerSecretField,
      previous: string,
      next: string,
    ): Promise<boolean> {
      return resealWhereUnchanged(db, sshServers, sshServers.id, SEALED_COLUMNS[field], {
        id,
        previous,
        next,
      });
    },
  };
}
