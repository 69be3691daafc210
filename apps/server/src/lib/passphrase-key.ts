import { createHmac, scrypt, scryptSync, timingSafeEqual } from 'node:crypto';

/**
 * A key made from a passphrase the user keeps (a backup archive's, an export's secrets'): scrypt
 * at ~100 ms and 32 MiB per attempt here, and an HMAC under the key that tells a wrong
 * passphrase from a damaged file without decrypting anything.
 */

export const PASSPHRASE_SCRYPT = { N: 2 ** 15, r: 8, p: 1 } as const;
const SCRYPT_MAXMEM = 64 * 1024 * 1024;

export type TScryptParams = { N: number; r: number; p: number };

export function derivePassphraseKey(passphrase: string, salt: Buffer, params: TScryptParams) {
  return scryptSync(passphrase, salt, 32, { ...params, maxmem: SCRYPT_MAXMEM });
}

/** The same off the event loop's thread, for a request. */
export function derivePassphraseKeyAsync(
  passphrase: string,
  salt: Buffer,
  params: TScryptParams,
): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(passphrase, salt, 32, { ...params, maxmem: SCRYPT_MAXMEM }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** The HMAC stored beside what the key sealed; `label` names what it seals. */
export function passphraseCheck(key: Buffer, label: string): string {
  return createHmac('sha256', key).update(label).digest('hex');
}

export function passphraseMatches(key: Buffer, label: string, expected: string): boolean {
  const check = Buffer.from(passphraseCheck(key, label), 'hex');
  const stored = Buffer.from(expected, 'hex');
  return check.length === stored.length && timingSafeEqual(check, stored);
}
