import { renderText } from '@portico/shared/i18n/text';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestPki } from '../../../test/support/test-pki';
import { KeyedAppError } from '../../lib/app-error';
import { checkCustomCertificate } from './custom-certificate-check';

const DAY = 24 * 60 * 60 * 1000;
const now = new Date();
const pki = createTestPki();
afterAll(() => pki.remove());

const domain = 'shop.example.test';
const valid = pki.leaf({
  names: [domain, 'www.shop.example.test'],
  from: new Date(now.getTime() - DAY),
  to: new Date(now.getTime() + 89 * DAY),
});
const other = pki.leaf({
  names: [domain],
  from: new Date(now.getTime() - DAY),
  to: new Date(now.getTime() + 89 * DAY),
});

/** The refusal's reason and its words in both languages. */
function refusal(certificate: string, privateKey: string, forDomain = domain) {
  try {
    checkCustomCertificate({ certificate, privateKey }, forDomain, now);
  } catch (error) {
    if (!(error instanceof KeyedAppError)) throw error;
    expect(error.statusCode).toBe(400);
    const text = { key: error.messageKey, params: error.params as Record<string, string> };
    return {
      reason: error.messageKey.replace('certificates.upload.', ''),
      en: renderText('en', text),
      es: renderText('es', text),
    };
  }
  throw new Error('accepted');
}

describe('an uploaded certificate', () => {
  it('is accepted with its key, leaf first then its issuer, and its facts read', () => {
    const facts = checkCustomCertificate(
      { certificate: `${valid.cert}\n${pki.caPem}`, privateKey: valid.key },
      domain,
      now,
    );
    expect(facts.names).toEqual([domain, 'www.shop.example.test']);
    expect(facts.issuer).toBe('Portico Test CA');
    expect(facts.chainPem.match(/BEGIN CERTIFICATE/g)).toHaveLength(2);
    expect(facts.privateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(new Date(facts.notAfter).getTime()).toBeGreaterThan(now.getTime() + 88 * DAY);
  });

  it('is accepted for a name its wildcard covers, one label deep only', () => {
    const wild = pki.leaf({
      names: ['*.example.test'],
      from: new Date(now.getTime() - DAY),
      to: new Date(now.getTime() + DAY),
    });
    const upload = { certificate: wild.cert, privateKey: wild.key };
    expect(checkCustomCertificate(upload, 'api.example.test', now).names).toEqual([
      '*.example.test',
    ]);
    expect(refusal(wild.cert, wild.key, 'a.b.example.test').reason).toBe('wrongName');
    expect(refusal(wild.cert, wild.key, 'example.test').reason).toBe('wrongName');
  });

  it('refuses a key that is not the certificate’s, in either language, without the key', () => {
    const r = refusal(valid.cert, other.key);
    expect(r.reason).toBe('keyMismatch');
    expect(r.en).toBe(
      'The private key does not belong to the certificate (the first one in the chain).',
    );
    expect(r.es).toBe('La clave privada no corresponde al certificado (el primero de la cadena).');
  });

  it('refuses a chain out of order', () => {
    const r = refusal(`${pki.caPem}\n${valid.cert}`, valid.key);
    // The CA first: its key is not the uploaded one, so the mismatch is said first.
    expect(r.reason).toBe('keyMismatch');
    const swapped = refusal(`${valid.cert}\n${other.cert}`, valid.key);
    expect(swapped.reason).toBe('chainOrder');
    expect(swapped.en).toContain('certificate 2 did not sign the one before it');
    expect(swapped.es).toContain('el certificado 2 no firmó el anterior');
  });

  it('refuses a private key in the chain field, and a chain field without a certificate', () => {
    expect(refusal(`${valid.cert}\n${valid.key}`, valid.key).reason).toBe('keyInChain');
    expect(refusal('hello', valid.key).reason).toBe('noCertificate');
    expect(refusal(valid.cert, valid.cert).reason).toBe('noPrivateKey');
    expect(
      refusal(
        valid.cert,
        '-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----',
      ).reason,
    ).toBe('encryptedKey');
  });

  it('refuses a certificate for another name, an expired one and one not yet valid', () => {
    const wrong = refusal(valid.cert, valid.key, 'other.example.test');
    expect(wrong.en).toBe(
      'The certificate is not valid for other.example.test: it names shop.example.test, www.shop.example.test.',
    );
    const expired = pki.leaf({
      names: [domain],
      from: new Date(now.getTime() - 90 * DAY),
      to: new Date(now.getTime() - DAY),
    });
    const r = refusal(expired.cert, expired.key);
    expect(r.reason).toBe('expired');
    expect(r.es).toMatch(/^El certificado caducó el /);
    const later = pki.leaf({
      names: [domain],
      from: new Date(now.getTime() + DAY),
      to: new Date(now.getTime() + 90 * DAY),
    });
    expect(refusal(later.cert, later.key).reason).toBe('notYetValid');
  });
});
