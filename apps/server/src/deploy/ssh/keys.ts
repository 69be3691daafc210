/**
 * Private keys for SSH logins: read and checked before anything is stored (each refusal a
 * precise code the caller turns into its message), and Ed25519 pairs Portico generates. ssh2's
 * own parser decides, so what is accepted here is exactly what a connection can use.
 */

import { generateEd25519OpenSsh } from './ed25519-openssh';

/** Larger than any real key (an 8192-bit RSA key in OpenSSH form is about 6.5 KB). */
export const PRIVATE_KEY_MAX_BYTES = 16 * 1024;

export type TKeyProblem =
  | 'too_large'
  | 'public_key'
  | 'passphrase_required'
  | 'wrong_passphrase'
  | 'passphrase_not_needed'
  | 'dsa'
  | 'unsupported_type'
  | 'unreadable';

export class PrivateKeyError extends Error {
  constructor(readonly problem: TKeyProblem) {
    // Never the key itself, nor ssh2's words about it.
    super(`The private key was refused: ${problem}.`);
    this.name = 'PrivateKeyError';
  }
}

const SUPPORTED = new Set([
  'ssh-ed25519',
  'ssh-rsa',
  'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521',
]);

export interface TReadKey {
  /** The key as stored: line ends as LF, no surrounding blank lines, one final newline. */
  privateKey: string;
  type: string;
  /** `type base64` of the public half, as in `authorized_keys`. */
  publicKey: string;
  encrypted: boolean;
}

let ssh2: Promise<Pick<typeof import('ssh2'), 'utils'>> | undefined;
/**
 * ssh2's `utils` is not among the names Node finds in its CommonJS exports: in plain Node (the
 * built server) `import('ssh2')` has it only on `default` (tsx and Vitest add it by name).
 */
const loadSsh2 = () => {
  ssh2 ??= import('ssh2').then((m) => ({
    utils: m.utils ?? (m as unknown as { default: typeof import('ssh2') }).default.utils,
  }));
  return ssh2;
};

/** The same key pasted with CRLF line ends or blank lines around it reads as one key. */
export function normalisePrivateKey(text: string): string {
  return `${text.replace(/\r\n?/g, '\n').trim()}\n`;
}

/**
 * Reads a pasted private key with its optional passphrase; throws PrivateKeyError naming what is
 * wrong. A passphrase given for a key that has none is refused rather than ignored: the user
 * believes it protects something.
 */
export async function readPrivateKey(text: string, passphrase?: string): Promise<TReadKey> {
  if (Buffer.byteLength(text, 'utf8') > PRIVATE_KEY_MAX_BYTES) {
    throw new PrivateKeyError('too_large');
  }
  const { utils } = await loadSsh2();
  const privateKey = normalisePrivateKey(text);
  const plain = utils.parseKey(privateKey);
  let key = plain;
  let encrypted = false;
  if (plain instanceof Error) {
    if (/no passphrase given/i.test(plain.message)) {
      encrypted = true;
      if (!passphrase) throw new PrivateKeyError('passphrase_required');
      key = utils.parseKey(privateKey, passphrase);
      if (key instanceof Error) throw new PrivateKeyError('wrong_passphrase');
    } else if (/Unsupported OpenSSH private key type/i.test(plain.message)) {
      // A key OpenSSH knows but ssh2 cannot use (a security-key type, for one).
      throw new PrivateKeyError('unsupported_type');
    } else {
      throw new PrivateKeyError('unreadable');
    }
  } else {
    const first = Array.isArray(plain) ? plain[0] : plain;
    if (first && !first.isPrivateKey()) throw new PrivateKeyError('public_key');
    if (passphrase) throw new PrivateKeyError('passphrase_not_needed');
  }
  const parsed = Array.isArray(key) ? key[0] : key;
  if (!parsed || parsed instanceof Error) throw new PrivateKeyError('unreadable');
  if (parsed.type === 'ssh-dss') throw new PrivateKeyError('dsa');
  if (!SUPPORTED.has(parsed.type)) throw new PrivateKeyError('unsupported_type');
  if (!parsed.isPrivateKey()) throw new PrivateKeyError('public_key');
  const publicKey = `${parsed.type} ${parsed.getPublicSSH().toString('base64')}`;
  return { privateKey, type: parsed.type, publicKey, encrypted };
}

export interface TGeneratedKey {
  privateKey: string;
  /** The exact `authorized_keys` line: `ssh-ed25519 AAAA… comment`. */
  publicKey: string;
}

/** A new Ed25519 key pair in OpenSSH form, unencrypted (Portico's secret box protects it). */
export async function generateKeyPair(comment: string): Promise<TGeneratedKey> {
  const pair = generateEd25519OpenSsh(comment);
  return { privateKey: normalisePrivateKey(pair.privateKey), publicKey: pair.publicKey };
}
