import { describe, expect, it } from 'vitest';
import {
  base32Decode,
  base32Encode,
  hotp,
  matchTotp,
  newTotpSecret,
  otpauthUrl,
  totpCode,
  totpStep,
} from './totp';

// RFC 6238 appendix B: the seeds are ASCII "1234567890" repeated to the hash's key length.
const SEEDS = {
  sha1: Buffer.from('12345678901234567890'),
  sha256: Buffer.from('12345678901234567890123456789012'),
  sha512: Buffer.from('1234567890123456789012345678901234567890123456789012345678901234'),
};
const VECTORS: [number, string, string, string][] = [
  [59, '94287082', '46119246', '90693936'],
  [1111111109, '07081804', '68084774', '25091201'],
  [1111111111, '14050471', '67062674', '99943326'],
  [1234567890, '89005924', '91819424', '93441116'],
  [2000000000, '69279037', '90698825', '38618901'],
  [20000000000, '65353130', '77737706', '47863826'],
];

describe('TOTP (RFC 6238)', () => {
  it.each(VECTORS)('matches the RFC vectors at T=%i', (seconds, sha1, sha256, sha512) => {
    const step = totpStep(seconds * 1000);
    expect(hotp(SEEDS.sha1, step, 8, 'sha1')).toBe(sha1);
    expect(hotp(SEEDS.sha256, step, 8, 'sha256')).toBe(sha256);
    expect(hotp(SEEDS.sha512, step, 8, 'sha512')).toBe(sha512);
  });

  it('matches RFC 4226 appendix D (HOTP, 6 digits)', () => {
    const expected = ['755224', '287082', '359152', '969429', '338314', '254676'];
    expect(expected.map((_, i) => hotp(SEEDS.sha1, i))).toEqual(expected);
  });

  it('round-trips base32 and reads the 6-digit SHA-1 code an app would show', () => {
    const secret = base32Encode(SEEDS.sha1);
    expect(secret).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(base32Decode(secret.toLowerCase())).toEqual(SEEDS.sha1);
    expect(totpCode(secret, 59_000)).toBe('287082');
    expect(newTotpSecret()).toMatch(/^[A-Z2-7]{32}$/);
  });

  it('accepts one step either side of now and names the step, nothing further', () => {
    const secret = newTotpSecret();
    const now = 1_700_000_000_000;
    const step = totpStep(now);
    for (const offset of [-1, 0, 1]) {
      const code = totpCode(secret, now + offset * 30_000);
      expect(matchTotp(secret, code, now)).toBe(step + offset);
    }
    for (const offset of [-2, 2]) {
      const code = totpCode(secret, now + offset * 30_000);
      // A code from two steps away may collide by chance with a nearby one; it never names its own step.
      expect(matchTotp(secret, code, now)).not.toBe(step + offset);
    }
    expect(matchTotp(secret, 'abcdef', now)).toBeNull();
  });

  it('writes the otpauth URL authenticator apps read', () => {
    const url = new URL(otpauthUrl('JBSWY3DPEHPK3PXP', 'ana@example.com'));
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe('/Portico:ana@example.com');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      secret: 'JBSWY3DPEHPK3PXP',
      issuer: 'Portico',
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
  });
});
