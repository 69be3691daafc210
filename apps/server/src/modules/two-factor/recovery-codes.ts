import { createHash, randomInt } from 'node:crypto';
import { RECOVERY_CODE_ALPHABET } from '@portico/shared/auth/account';

export const RECOVERY_CODE_COUNT = 10;
const CODE_LENGTH = 16;

/**
 * A new recovery code: 16 characters of a 31-letter alphabet without look-alikes (about 79
 * bits), shown as four groups of four. That much randomness makes a fast hash (SHA-256) as safe
 * to store as a slow one: there is nothing to guess from a stolen hash.
 */
export function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i += 1) {
    code += RECOVERY_CODE_ALPHABET[randomInt(RECOVERY_CODE_ALPHABET.length)];
  }
  return code.match(/.{4}/g)!.join('-');
}

/** The stored form: SHA-256 of the normalised code, bound to the account. */
export function recoveryCodeHash(userId: string, code: string): string {
  const normal = code.replace(/[\s-]+/g, '').toLowerCase();
  return createHash('sha256').update(`${userId}:${normal}`).digest('hex');
}
