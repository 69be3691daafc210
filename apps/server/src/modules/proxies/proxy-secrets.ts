import {
  openSecretBox,
  SecretDecryptError,
  SecretKeyError,
  secretAad,
  type TSecretBox,
} from '../../lib/secrets';
import { proxyErrors } from './proxy-errors';

export type TProxySecrets = ReturnType<typeof createProxySecrets>;

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
    encryptPassword(id: string, password: string): string {
      return openBox().encrypt(password, secretAad('proxy', id, 'sshPassword'));
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
