import { createHash, randomBytes } from 'node:crypto';

/**
 * sha512-crypt (`$6$salt$hash`, Drepper's "Unix crypt using SHA-256 and SHA-512"): the basic-auth
 * password hash nginx checks through the C library's crypt() on Debian and RHEL alike, computed
 * here because Node has no crypt(). nginx hashes on every request, so the default 5000 rounds
 * stay; the password itself is never stored.
 */

const ITOA64 = './0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const ROUNDS = 5000;

const sha512 = (...parts: Buffer[]) => {
  const h = createHash('sha512');
  for (const p of parts) h.update(p);
  return h.digest();
};

/** `bytes` repeated to `length` bytes. */
function repeated(bytes: Buffer, length: number): Buffer {
  const out = Buffer.alloc(length);
  for (let at = 0; at < length; at += bytes.length)
    bytes.copy(out, at, 0, Math.min(bytes.length, length - at));
  return out;
}

function encode(c: Buffer): string {
  let out = '';
  const put = (b2: number, b1: number, b0: number, n: number) => {
    let w = (b2 << 16) | (b1 << 8) | b0;
    for (let i = 0; i < n; i++, w >>= 6) out += ITOA64[w & 0x3f];
  };
  for (let i = 0; i < 21; i++) {
    const [x, y, z] = [c[i]!, c[i + 21]!, c[i + 42]!];
    if (i % 3 === 0) put(x, y, z, 4);
    else if (i % 3 === 1) put(y, z, x, 4);
    else put(z, x, y, 4);
  }
  put(0, 0, c[63]!, 2);
  return out;
}

export function sha512Crypt(password: string, salt: string): string {
  const p = Buffer.from(password, 'utf8');
  const s = Buffer.from(salt.slice(0, 16), 'utf8');
  const b = sha512(p, s, p);
  const a = createHash('sha512').update(p).update(s).update(repeated(b, p.length));
  for (let n = p.length; n > 0; n >>= 1) a.update(n & 1 ? b : p);
  const aDigest = a.digest();
  const pBytes = repeated(sha512(...Array<Buffer>(p.length).fill(p)), p.length);
  const sBytes = repeated(sha512(...Array<Buffer>(16 + aDigest[0]!).fill(s)), s.length);
  let c = aDigest;
  for (let i = 0; i < ROUNDS; i++) {
    const parts: Buffer[] = [i & 1 ? pBytes : c];
    if (i % 3 !== 0) parts.push(sBytes);
    if (i % 7 !== 0) parts.push(pBytes);
    parts.push(i & 1 ? c : pBytes);
    c = sha512(...parts);
  }
  return `$6$${s.toString('utf8')}$${encode(c)}`;
}

/** A new hash with a random 16-character salt. */
export function hashBasicAuthPassword(password: string): string {
  const salt = [...randomBytes(16)].map((byte) => ITOA64[byte & 0x3f]).join('');
  return sha512Crypt(password, salt);
}
