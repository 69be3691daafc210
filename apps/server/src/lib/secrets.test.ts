import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  decryptSecret,
  encryptSecret,
  loadOrCreateKey,
  openSecretBox,
  SecretDecryptError,
  SecretKeyError,
  secretAad,
  secretBoxLoader,
} from './secrets';

const dir = mkdtempSync(join(tmpdir(), 'portico-secrets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const key = randomBytes(32);
const anyText = fc.string({ unit: 'binary', maxLength: 200 });
const anyAad = fc.string({ unit: 'binary', minLength: 1, maxLength: 60 });

describe('encryptSecret / decryptSecret', () => {
  it('round-trips any text under its own AAD', () => {
    fc.assert(
      fc.property(anyText, anyAad, (text, aad) => {
        expect(decryptSecret(key, encryptSecret(key, text, aad), aad)).toBe(text);
      }),
    );
  });

  it('uses a fresh IV every time', () => {
    const a = encryptSecret(key, 'same', 'proxy:1:sshPassword');
    const b = encryptSecret(key, 'same', 'proxy:1:sshPassword');
    expect(a).not.toBe(b);
  });

  it('refuses a ciphertext with any byte flipped', () => {
    fc.assert(
      fc.property(
        anyText,
        anyAad,
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        (text, aad, at, mask) => {
          const raw = Buffer.from(encryptSecret(key, text, aad), 'base64');
          const i = at % raw.length;
          raw[i] = raw[i]! ^ mask;
          expect(() => decryptSecret(key, raw.toString('base64'), aad)).toThrow(SecretDecryptError);
        },
      ),
    );
  });

  it('refuses a ciphertext moved to another row or column', () => {
    fc.assert(
      fc.property(anyText, anyAad, anyAad, (text, aad, other) => {
        fc.pre(aad !== other);
        const stored = encryptSecret(key, text, aad);
        expect(() => decryptSecret(key, stored, other)).toThrow(SecretDecryptError);
      }),
    );
    const stored = encryptSecret(key, 'hunter2', secretAad('proxy', 7, 'sshPassword'));
    expect(() => decryptSecret(key, stored, secretAad('proxy', 8, 'sshPassword'))).toThrow(
      /belongs to another record/,
    );
  });

  it('refuses a ciphertext under another key', () => {
    const stored = encryptSecret(key, 'hunter2', 'proxy:1:sshPassword');
    expect(() => decryptSecret(randomBytes(32), stored, 'proxy:1:sshPassword')).toThrow(
      SecretDecryptError,
    );
  });

  it('refuses truncated, non-canonical and unknown-version input', () => {
    const stored = encryptSecret(key, 'x', 'a');
    const raw = Buffer.from(stored, 'base64');
    const cases = [
      '',
      'not base64!',
      stored.slice(0, 20),
      `${stored}\n`,
      ` ${stored}`,
      Buffer.concat([Buffer.from([2]), raw.subarray(1)]).toString('base64'),
    ];
    for (const c of cases) expect(() => decryptSecret(key, c, 'a')).toThrow(SecretDecryptError);
  });

  it('starts with the version byte 1', () => {
    expect(Buffer.from(encryptSecret(key, 'x', 'a'), 'base64')[0]).toBe(1);
  });

  it('refuses a key of the wrong size', () => {
    expect(() => encryptSecret(randomBytes(16), 'x', 'a')).toThrow(SecretKeyError);
  });
});

describe('loadOrCreateKey', () => {
  it('creates a 32-byte key with mode 0600 on first use and reads the same key after', () => {
    const path = join(dir, 'sub', 'secret.key');
    const first = loadOrCreateKey(path);
    expect(first).toHaveLength(32);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(loadOrCreateKey(path).equals(first)).toBe(true);
    expect(readFileSync(path).equals(first)).toBe(true);
  });

  it('reports a key file of the wrong size instead of replacing it', () => {
    const path = join(dir, 'short.key');
    writeFileSync(path, randomBytes(31));
    expect(() => loadOrCreateKey(path)).toThrow(SecretKeyError);
    expect(() => loadOrCreateKey(path)).toThrow(/31 bytes instead of 32/);
    expect(readFileSync(path)).toHaveLength(31);
  });

  it('reports a key path that is not a readable file', () => {
    expect(() => loadOrCreateKey(dir)).toThrow(SecretKeyError);
    expect(() => loadOrCreateKey(dir)).toThrow(/cannot be read \(EISDIR\)/);
  });

  it('reports a key file that cannot be created', () => {
    const locked = join(dir, 'locked');
    writeFileSync(locked, '');
    chmodSync(locked, 0o400);
    // A regular file cannot be a parent directory, even for root.
    expect(() => loadOrCreateKey(join(locked, 'secret.key'))).toThrow(SecretKeyError);
  });

  it('a box decrypts what it encrypted, and a box over another key file does not', () => {
    const box = openSecretBox(join(dir, 'box.key'));
    const aad = secretAad('proxy', 'abc', 'sshPassword');
    const stored = box.encrypt('p@ss', aad);
    expect(box.decrypt(stored, aad)).toBe('p@ss');
    expect(() => openSecretBox(join(dir, 'other.key')).decrypt(stored, aad)).toThrow(
      SecretDecryptError,
    );
  });
});

describe('secretBoxLoader', () => {
  it('reads the key file at the first call only, again after a failure or forget()', () => {
    const path = join(dir, 'loader', 'secret.key');
    const box = secretBoxLoader(path);
    // Nothing is read or created before a secret is needed.
    expect(() => statSync(path)).toThrow();
    const sealed = box().encrypt('webhook', 'aad');
    expect(statSync(path).size).toBe(32);
    expect(box()).toBe(box());

    // A damaged file is not noticed while the box is open, and read again once forgotten.
    writeFileSync(path, 'short');
    expect(box().decrypt(sealed, 'aad')).toBe('webhook');
    box.forget();
    expect(() => box()).toThrow(SecretKeyError);
    expect(() => box()).toThrow(SecretKeyError);

    // A key restored while Portico runs is picked up at the next call.
    const restored = randomBytes(32);
    writeFileSync(path, restored);
    expect(box().decrypt(encryptSecret(restored, 'back', 'aad'), 'aad')).toBe('back');
  });
});
