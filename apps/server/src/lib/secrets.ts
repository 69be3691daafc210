import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Secrets at rest: AES-256-GCM, the additional authenticated data names the row and column the
 * value belongs to, so a ciphertext copied into another row (or column) does not decrypt.
 *
 * Stored form: base64( version(1) | iv(12) | tag(16) | ciphertext ). The version byte lets a later
 * key rotation or algorithm change coexist with rows written today.
 */

const VERSION = 1;
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = 1 + IV_BYTES + TAG_BYTES;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export class SecretKeyError extends Error {
  readonly code = 'secret_key';
  constructor(
    message: string,
    readonly path: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SecretKeyError';
  }
}

export class SecretDecryptError extends Error {
  readonly code = 'secret_decrypt';
  constructor(message: string) {
    super(message);
    this.name = 'SecretDecryptError';
  }
}

/** The additional data for one secret column of one row, e.g. `proxy:42:sshPassword`. */
export function secretAad(kind: string, id: string | number, field: string): string {
  return `${kind}:${id}:${field}`;
}

/**
 * Reads the 32-byte key, creating it (mode 0600, random) when the file does not exist yet.
 * Anything else wrong with the file is a SecretKeyError: a lost or damaged key must be reported,
 * never silently replaced, or every stored secret would become unreadable without a word.
 */
export function loadOrCreateKey(path: string): Buffer {
  let key: Buffer;
  try {
    key = readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new SecretKeyError(
        `The secret key file ${path} cannot be read (${(error as NodeJS.ErrnoException).code}); stored secrets cannot be decrypted until it is restored.`,
        path,
        { cause: error },
      );
    }
    key = createKeyFile(path);
  }
  if (key.length !== KEY_BYTES) {
    throw new SecretKeyError(
      `The secret key file ${path} holds ${key.length} bytes instead of ${KEY_BYTES}; it is damaged or not a Portico key.`,
      path,
    );
  }
  return key;
}

function createKeyFile(path: string): Buffer {
  try {
    return writeKeyFile(path, randomBytes(KEY_BYTES));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(path);
    throw new SecretKeyError(
      `The secret key file ${path} cannot be created (${(error as NodeJS.ErrnoException).code}).`,
      path,
      { cause: error },
    );
  }
}

/**
 * Writes a key to a file that must not exist yet (mode 0600, flushed to disk before returning),
 * so a crash never leaves a half-written key behind a database that already uses it.
 */
export function writeKeyFile(path: string, key: Buffer): Buffer {
  checkKey(key);
  return writePrivateFile(path, key);
}

/** `writeKeyFile` for any bytes (a restore writes the session secret this way too). */
export function writePrivateFile(path: string, bytes: Buffer): Buffer {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  // 'wx' fails if another process created the file meanwhile.
  const fd = openSync(path, 'wx', 0o600);
  try {
    writeSync(fd, bytes);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return bytes;
}

/** A fresh random key, for rotation. */
export function newSecretKey(): Buffer {
  return randomBytes(KEY_BYTES);
}

function checkKey(key: Uint8Array): void {
  if (key.length !== KEY_BYTES) {
    throw new SecretKeyError(`A secret key must be ${KEY_BYTES} bytes.`, '(memory)');
  }
}

export function encryptSecret(key: Uint8Array, plaintext: string, aad: string): string {
  checkKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]).toString('base64');
}

export function decryptSecret(key: Uint8Array, stored: string, aad: string): string {
  checkKey(key);
  // Buffer.from(…, 'base64') skips invalid characters; insist on the canonical form instead.
  if (!BASE64.test(stored) || stored.length % 4 !== 0) {
    throw new SecretDecryptError('The stored secret is not in the expected format.');
  }
  const raw = Buffer.from(stored, 'base64');
  if (raw.length < HEADER_BYTES || raw.toString('base64') !== stored) {
    throw new SecretDecryptError('The stored secret is not in the expected format.');
  }
  if (raw[0] !== VERSION) {
    throw new SecretDecryptError(`The stored secret has an unknown format version (${raw[0]}).`);
  }
  const iv = raw.subarray(1, 1 + IV_BYTES);
  const tag = raw.subarray(1 + IV_BYTES, HEADER_BYTES);
  const body = raw.subarray(HEADER_BYTES);
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretDecryptError(
      'The stored secret does not decrypt: it was altered, belongs to another record, or was written with another key.',
    );
  }
}

/** Key loaded once from its file; encrypt/decrypt bound to it. */
export interface TSecretBox {
  encrypt(plaintext: string, aad: string): string;
  decrypt(stored: string, aad: string): string;
}

export function openSecretBox(keyFilePath: string): TSecretBox {
  const key = loadOrCreateKey(keyFilePath);
  return {
    encrypt: (plaintext, aad) => encryptSecret(key, plaintext, aad),
    decrypt: (stored, aad) => decryptSecret(key, stored, aad),
  };
}

/** The key file's box, opened on the first call (see secretBoxLoader). */
export interface TSecretBoxLoader {
  (): TSecretBox;
  /** Reads the file again at the next call (after a value that did not decrypt). */
  forget(): void;
}

/**
 * The one opener of the key file, shared by every reader of stored secrets (the composition root
 * makes one per instance): read at the first call, so an instance that stores nothing never
 * reads it, and again after a failure (a SecretKeyError is thrown to that caller) or forget(),
 * so a key file restored while Portico runs is picked up.
 */
export function secretBoxLoader(keyFilePath: string): TSecretBoxLoader {
  let box: TSecretBox | undefined;
  const load = () => {
    box ??= openSecretBox(keyFilePath);
    return box;
  };
  return Object.assign(load, {
    forget: () => {
      box = undefined;
    },
  });
}
