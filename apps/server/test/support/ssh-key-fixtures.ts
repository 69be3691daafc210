// Private keys as users paste them, made with the real tools: ssh-keygen (DSA, the one OpenSSH
// itself no longer accepts) and ssh2's generator (Ed25519, passphrase-protected or not).
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ssh2 from 'ssh2';

export const KEY_PASSPHRASE = 'correct horse battery staple';

export function ed25519(passphrase?: string): { privateKey: string; publicKey: string } {
  const pair = passphrase
    ? ssh2.utils.generateKeyPairSync('ed25519', { passphrase, cipher: 'aes256-ctr', rounds: 16 })
    : ssh2.utils.generateKeyPairSync('ed25519');
  return { privateKey: pair.private, publicKey: pair.public };
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
  const dir = mkdtempSync(join(tmpdir(), 'portico-dsa-'));
  try {
    execFileSync('ssh-keygen', ['-q', '-t', 'dsa', '-N', '', '-f', join(dir, 'key')]);
    return readFileSync(join(dir, 'key'), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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
