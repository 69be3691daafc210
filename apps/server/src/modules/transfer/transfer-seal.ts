import { randomBytes } from 'node:crypto';
import type { TExportSealing } from '@portico/shared/transfer/schemas';
import { KeyedAppError } from '../../lib/app-error';
import {
  derivePassphraseKeyAsync,
  PASSPHRASE_SCRYPT,
  passphraseCheck,
  passphraseMatches,
} from '../../lib/passphrase-key';
import { decryptSecret, encryptSecret, SecretDecryptError } from '../../lib/secrets';

/**
 * An export's secrets, each AES-256-GCM under a scrypt key of the user's passphrase. The
 * additional data names the entry and field a secret belongs to (a server by its ref, a proxy by
 * its domain, with the target it was entered for), so a secret moved to another entry or
 * pointed at another host in the file does not open.
 */

const CHECK_LABEL = 'portico-export-passphrase-check';

export interface TSealer {
  sealing: TExportSealing | null;
  seal(value: string, aad: string): string;
}

export interface TOpener {
  open(sealed: string, aad: string): string;
}

export function serverSecretLabel(ref: string, field: string, target: string): string {
  return `server:${ref}:${field}@${target}`;
}

export function proxyPasswordLabel(domain: string, target: string): string {
  return `proxy:${domain}:password@${target}`;
}

/** Without a passphrase nothing is sealed: the export leaves its secrets out. */
export async function sealerFor(passphrase: string | undefined): Promise<TSealer | null> {
  if (passphrase === undefined) return null;
  const salt = randomBytes(16);
  const key = await derivePassphraseKeyAsync(passphrase, salt, PASSPHRASE_SCRYPT);
  return {
    sealing: {
      kdf: 'scrypt',
      ...PASSPHRASE_SCRYPT,
      salt: salt.toString('base64'),
      check: passphraseCheck(key, CHECK_LABEL),
    },
    seal: (value, aad) => encryptSecret(key, value, aad),
  };
}

const damaged = () => new KeyedAppError('import_damaged', 400, 'errors.importDamaged');

/**
 * The opener of a document's secrets: none when it carries none; refused when it does and the
 * passphrase is missing or wrong, before anything is written.
 */
export async function openerFor(
  sealing: TExportSealing | null,
  passphrase: string | undefined,
): Promise<TOpener | null> {
  if (sealing === null) return null;
  if (passphrase === undefined) {
    throw new KeyedAppError('import_passphrase_needed', 400, 'errors.importPassphraseNeeded');
  }
  const key = await derivePassphraseKeyAsync(
    passphrase,
    Buffer.from(sealing.salt, 'base64'),
    sealing,
  );
  if (!passphraseMatches(key, CHECK_LABEL, sealing.check)) {
    throw new KeyedAppError('import_wrong_passphrase', 400, 'errors.importWrongPassphrase');
  }
  return {
    open(sealed, aad) {
      try {
        return decryptSecret(key, sealed, aad);
      } catch (error) {
        if (error instanceof SecretDecryptError) throw damaged();
        throw error;
      }
    },
  };
}
