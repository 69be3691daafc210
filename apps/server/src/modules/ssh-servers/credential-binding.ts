import type { TSshServerRow } from '../../db/schema';
import { secretAad } from '../../lib/secrets';

/**
 * What a secret is bound to (server-credentials.ts holds the rule that reads it): the
 * `user@host:port` it was entered for, and for a saved server's secrets the additional data
 * that names its row, column and target.
 */

/** Where an SSH login goes: the host as stored (an address, or a name from the edit dialog). */
export interface TSshTarget {
  serverIp: string;
  sshPort: number;
  sshUser: string;
}

/** The binding of a saved secret, `user@host:port`. */
export function sshTargetOf(target: TSshTarget): string {
  return `${target.sshUser}@${target.serverIp}:${target.sshPort}`;
}

export function serverTarget(
  server: Pick<TSshServerRow, 'host' | 'port' | 'username'>,
): TSshTarget {
  return { serverIp: server.host, sshPort: server.port, sshUser: server.username };
}

/** A proxy's own saved password exists and was entered for exactly this target. */
export function passwordBoundTo(
  row: { sshPasswordEnc: string | null; sshPasswordTarget: string | null },
  target: TSshTarget,
): boolean {
  return row.sshPasswordEnc !== null && row.sshPasswordTarget === sshTargetOf(target);
}

export type TServerSecretField = 'password' | 'privateKey' | 'passphrase' | 'sudoPassword';

/** The additional data of one secret of a saved server: its row, its column, its target. */
export function serverSecretAad(id: string, field: TServerSecretField, target: TSshTarget): string {
  return secretAad('sshServer', id, `${field}@${sshTargetOf(target)}`);
}
