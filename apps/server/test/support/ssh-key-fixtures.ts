// Private keys as users paste them, made with the real tools: ssh-keygen (DSA, the one OpenSSH
// itself no longer accepts, and Ed25519 with a passphrase) and Portico's own Ed25519 writer.
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateEd25519OpenSsh } from '../../src/deploy/ssh/ed25519-openssh';

export const KEY_PASSPHRASE = 'correct horse battery staple';

export function ed25519(passphrase?: string): { privateKey: string; publicKey: string } {
  if (!passphrase) return generateEd25519OpenSsh('');
  return withKeygen(['-t', 'ed25519', '-a', '16', '-N', passphrase]);
}

/** ssh-keygen into a throwaway folder; the pair as it wrote them. */
function withKeygen(args: string[]): { privateKey: string; publicKey: string } {
  const dir = mkdtempSync(join(tmpdir(), 'portico-key-'));
  try {
    execFileSync('ssh-keygen', ['-q', ...args, '-C', '', '-f', join(dir, 'key')]);
    return {
      privateKey: readFileSync(join(dir, 'key'), 'utf8'),
      publicKey: readFileSync(join(dir, 'key.pub'), 'utf8').trim(),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function rsaPem(): string {
  return generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  }).privateKey;
}

export function ecdsaPem(): string {
  return generateKeyPairSync('ec', {
    namedCurve: 'P-256',
    privateKeyEncoding: { type: 'sec1', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  }).privateKey;
}

export function dsaKey(): string {
  return withKeygen(['-t', 'dsa', '-N', '']).privateKey;
}

/**
 * An OpenSSH private key of a type ssh2 does not support (the layout of `openssh-key-v1`, with
 * the type of an OpenSSH security key): what a user with a hardware key would paste.
 */
export function unsupportedTypeKey(): string {
  const str = (v: string | Buffer) => {
    const b = Buffer.isBuffer(v) ? v : Buffer.from(v);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(b.length);
    return Buffer.concat([len, b]);
  };
  const type = 'sk-ssh-ed25519@openssh.com';
  const pub = Buffer.concat([str(type), str(Buffer.alloc(32, 1)), str('ssh:')]);
  const check = Buffer.from([1, 2, 3, 4, 1, 2, 3, 4]);
  const priv = Buffer.concat([check, str(type), str(Buffer.alloc(32, 1)), str('ssh:')]);
  const one = Buffer.alloc(4);
  one.writeUInt32BE(1);
  const blob = Buffer.concat([
    Buffer.from('openssh-key-v1\0'),
    str('none'),
    str('none'),
    str(''),
    one,
    str(pub),
    str(priv),
  ]);
  const body = blob.toString('base64').replace(/(.{70})/g, '$1\n');
  return `-----BEGIN OPENSSH PRIVATE KEY-----\n${body}\n-----END OPENSSH PRIVATE KEY-----\n`;
}
