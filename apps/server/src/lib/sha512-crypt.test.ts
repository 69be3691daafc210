import { execFileSync } from 'node:child_process';
import { PASSWORD_HASH } from '@portico/shared/proxy/options';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashBasicAuthPassword, sha512Crypt } from './sha512-crypt';

// The C library's crypt() is what nginx checks with; openssl's `passwd -6` computes the same.
const openssl = (password: string, salt: string) =>
  execFileSync('openssl', ['passwd', '-6', '-salt', salt, '-stdin'], {
    input: password,
    encoding: 'utf8',
  }).trim();

describe('sha512Crypt', () => {
  it('agrees with openssl passwd -6 on random passwords and salts', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[\x20-\x7e]{8,128}$/),
        fc.stringMatching(/^[./A-Za-z0-9]{1,16}$/),
        (password, salt) => {
          expect(sha512Crypt(password, salt)).toBe(openssl(password, salt));
        },
      ),
      { numRuns: 25 },
    );
  });

  it('a new hash has a fresh salt and the stored shape', () => {
    const a = hashBasicAuthPassword('correct horse');
    const b = hashBasicAuthPassword('correct horse');
    expect(a).toMatch(PASSWORD_HASH);
    expect(a).not.toBe(b);
    expect(a).not.toContain('correct horse');
  });
});
