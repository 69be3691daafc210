import type { TServerCredentials } from './server-credentials';
import type { TSshServersRepository } from './ssh-servers.repository';

const BATCH = 500;
const NO_ID = '00000000-0000-0000-0000-000000000000';

export interface TBackfillResult {
  moved: number;
  /** Servers whose proxies' passwords did not decrypt (key file missing or rows altered). */
  failed: number;
}

/**
 * Migration 0014 gave every proxy a saved server but could not copy its password: a proxy's
 * ciphertext is bound to the proxy row (lib/secrets.ts). At start-up, each such server gets the
 * password of its newest proxy whose password was entered for the server's target, decrypted
 * and sealed again for the server. The proxies keep their own copy, so a failure here (a key
 * file that is missing) loses nothing: the next start tries again. Idempotent; bounded batches.
 */
export async function moveProxyPasswordsToServers(
  repository: TSshServersRepository,
  credentials: TServerCredentials,
): Promise<TBackfillResult> {
  const result: TBackfillResult = { moved: 0, failed: 0 };
  let after = NO_ID;
  for (;;) {
    const rows = await repository.passwordsToMove(after, BATCH);
    if (rows.length === 0) return result;
    const seen = new Set<string>();
    for (const row of rows) {
      after = row.serverId;
      // Rows come newest proxy first per server: the first is the one to keep.
      if (seen.has(row.serverId)) continue;
      seen.add(row.serverId);
      const target = { serverIp: row.host, sshPort: row.port, sshUser: row.username };
      let sealed: string;
      try {
        sealed = credentials.movePasswordToServer(
          {
            id: row.proxyId,
            sshPasswordEnc: row.sshPasswordEnc,
            sshPasswordTarget: row.sshPasswordTarget,
            sshServerId: row.serverId,
          },
          row.serverId,
          target,
        );
      } catch {
        result.failed += 1;
        continue;
      }
      if (await repository.setMovedPassword(row.serverId, sealed)) result.moved += 1;
    }
    if (rows.length < BATCH) return result;
  }
}
