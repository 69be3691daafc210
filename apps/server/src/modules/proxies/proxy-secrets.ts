import {
  openSecretBox,
  SecretDecryptError,
  SecretKeyError,
  secretAad,
  type TSecretBox,
} from '../../lib/secrets';
import { proxyErrors } from './proxy-errors';

export type TProxySecrets = ReturnType<typeof createProxySecrets>;

/** Where an SSH login goes: the host as stored (an address, or a name from the edit dialog). */
export interface TSshTarget {
  serverIp: string;
  sshPort: number;
  sshUser: string;
}

/** The binding of a saved password, `user@host:port`: it is presented to this target only. */
export function sshTargetOf(target: TSshTarget): string {
  return `${target.sshUser}@${target.serverIp}:${target.sshPort}`;
}

/** A saved password exists and was entered for exactly this target. */
export function passwordBoundTo(
  row: { sshPasswordEnc: string | null; sshPasswordTarget: string | null },
  target: TSshTarget,
): boolean {
  return row.sshPasswordEnc !== null && row.sshPasswordTarget === sshTargetOf(target);
}

/**
 * The SSH password of a configuration, encrypted with the row id as additional data. The key
 * file is read on first use and again after a failure, so a key restored while Portico runs is
 * picked up; a missing or wrong key is a clear error (errors.secretKeyUnreadable), never a crash.
 */
export function createProxySecrets(keyFile: string) {
  let box: TSecretBox | undefined;

  function openBox(): TSecretBox {
    if (box) return box;
    try {
      box = openSecretBox(keyFile);
      return box;
    } catch (error) {
      if (error instanceof SecretKeyError) throw proxyErrors.secretKeyUnreadable();
      throw error;
    }
  }

  return {
    /** The columns that store `password` for row `id`, bound to the target it was entered for. */
    sealPassword(id: string, password: string, target: TSshTarget) {
      return {
        sshPasswordEnc: openBox().encrypt(password, secretAad('proxy', id, 'sshPassword')),
        sshPasswordTarget: sshTargetOf(target),
      };
    },
    decryptPassword(id: string, stored: string): string {
      try {
        return openBox().decrypt(stored, secretAad('proxy', id, 'sshPassword'));
      } catch (error) {
        if (error instanceof SecretDecryptError) throw proxyErrors.secretUndecryptable();
        if (error instanceof SecretKeyError) throw proxyErrors.secretKeyUnreadable();
        throw error;
      }
    },
  };
}
