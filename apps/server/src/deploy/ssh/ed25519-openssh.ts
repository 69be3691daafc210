/**
 * Ed25519 key pairs written in OpenSSH's own `openssh-key-v1` form, from Node's crypto.
 *
 * Why not ssh2's generator: it takes the raw keys out of DER and drops a leading zero byte, so
 * about one key in 256 comes out with a 31-byte public half that no parser (ssh2's included)
 * reads back. A user would be handed a key Portico itself then refuses.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';

const KEY_TYPE = 'ssh-ed25519';

function sshString(value: string | Buffer): Buffer {
  const bytes = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

function uint32(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value);
  return bytes;
}

/** Raw 32-byte halves as JWK gives them: fixed length, no DER trimming. */
function rawEd25519(): { seed: Buffer; publicKey: Buffer } {
  const { privateKey } = generateKeyPairSync('ed25519');
  const jwk = privateKey.export({ format: 'jwk' });
  const seed = Buffer.from(jwk.d ?? '', 'base64url');
  const publicKey = Buffer.from(jwk.x ?? '', 'base64url');
  if (seed.length !== 32 || publicKey.length !== 32) {
    throw new Error('Node returned an Ed25519 key of unexpected length.');
  }
  return { seed, publicKey };
}

/** An unencrypted pair: the PEM-armoured private key and the `authorized_keys` line. */
export function generateEd25519OpenSsh(comment: string): { privateKey: string; publicKey: string } {
  const { seed, publicKey } = rawEd25519();
  const publicBlob = Buffer.concat([sshString(KEY_TYPE), sshString(publicKey)]);
  const check = randomBytes(4);
  let privateSection = Buffer.concat([
    check,
    check,
    sshString(KEY_TYPE),
    sshString(publicKey),
    sshString(Buffer.concat([seed, publicKey])),
    sshString(comment),
  ]);
  // Padded to the cipher block size ("none": 8) with the bytes 1, 2, 3, …
  const padding = (8 - (privateSection.length % 8)) % 8;
  privateSection = Buffer.concat([
    privateSection,
    Buffer.from(Array.from({ length: padding }, (_, i) => i + 1)),
  ]);
  const body = Buffer.concat([
    Buffer.from('openssh-key-v1\0', 'latin1'),
    sshString('none'),
    sshString('none'),
    sshString(''),
    uint32(1),
    sshString(publicBlob),
    sshString(privateSection),
  ]);
  const lines = body.toString('base64').match(/.{1,70}/g) ?? [];
  return {
    privateKey: `-----BEGIN OPENSSH PRIVATE KEY-----\n${lines.join('\n')}\n-----END OPENSSH PRIVATE KEY-----\n`,
    publicKey: `${KEY_TYPE} ${publicBlob.toString('base64')}${comment ? ` ${comment}` : ''}`,
  };
}
