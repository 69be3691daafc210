import { createPrivateKey, createPublicKey, type KeyObject, X509Certificate } from 'node:crypto';
import type { TCustomCertificateInput } from '@portico/shared/certificates/custom';
import { KeyedAppError } from '../../lib/app-error';

/**
 * An uploaded certificate (your own: a company CA's, a bought one) checked before anything is
 * stored: PEM certificates only in the chain field, the leaf first and each one signed by the
 * next, the private key the leaf's, the leaf valid now and for the proxy's domain. The refusal
 * names the first problem found; it never echoes the key.
 */
export type TCustomCertificateFacts = {
  /** The chain as uploaded, normalised: each certificate's PEM, leaf first, one newline apart. */
  chainPem: string;
  privateKeyPem: string;
  fingerprint: string;
  notBefore: string;
  notAfter: string;
  issuer: string;
  names: string[];
};

const CERTIFICATE_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;
const PRIVATE_KEY_MARK = /-----BEGIN [A-Z ]*PRIVATE KEY-----/;

function refuse(reason: string, params: Record<string, string> = {}): never {
  throw new KeyedAppError(
    'custom_certificate_invalid',
    400,
    `certificates.upload.${reason}`,
    params,
  );
}

function parseChain(pem: string): X509Certificate[] {
  if (PRIVATE_KEY_MARK.test(pem)) refuse('keyInChain');
  const blocks = pem.match(CERTIFICATE_BLOCK) ?? [];
  if (blocks.length === 0) refuse('noCertificate');
  return blocks.map((block, i) => {
    try {
      return new X509Certificate(block);
    } catch {
      return refuse('unreadableCertificate', { position: String(i + 1) });
    }
  });
}

function parseKey(pem: string): KeyObject {
  if (!PRIVATE_KEY_MARK.test(pem)) refuse('noPrivateKey');
  if (/ENCRYPTED/.test(pem)) refuse('encryptedKey');
  try {
    return createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    return refuse('noPrivateKey');
  }
}

/** The DNS names a certificate is for (its SANs; the subject's CN only when it has none). */
function namesOf(cert: X509Certificate): string[] {
  const san = cert.subjectAltName;
  if (san) {
    return san
      .split(/,\s*/)
      .filter((entry) => entry.startsWith('DNS:'))
      .map((entry) => entry.slice(4).toLowerCase());
  }
  const cn = /(?:^|\n)CN=([^\n]+)/.exec(cert.subject)?.[1];
  return cn ? [cn.toLowerCase()] : [];
}

/** RFC 6125: a wildcard stands for exactly one leftmost label. */
function covers(name: string, domain: string): boolean {
  if (name === domain) return true;
  if (!name.startsWith('*.')) return false;
  const dot = domain.indexOf('.');
  return dot > 0 && domain.slice(dot + 1) === name.slice(2);
}

export function checkCustomCertificate(
  input: TCustomCertificateInput,
  domain: string,
  now: Date,
): TCustomCertificateFacts {
  const chain = parseChain(input.certificate);
  const key = parseKey(input.privateKey);
  const leaf = chain[0]!;
  const matches =
    createPublicKey(key).export({ format: 'der', type: 'spki' }).toString('base64') ===
    leaf.publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
  if (!matches) refuse('keyMismatch');
  for (let i = 0; i + 1 < chain.length; i++) {
    const issuer = chain[i + 1]!;
    if (!chain[i]!.checkIssued(issuer) || !chain[i]!.verify(issuer.publicKey)) {
      refuse('chainOrder', { position: String(i + 2) });
    }
  }
  const names = namesOf(leaf);
  const wanted = domain.toLowerCase();
  if (!names.some((name) => covers(name, wanted))) {
    refuse('wrongName', { domain: wanted, names: names.join(', ') || '—' });
  }
  const notBefore = new Date(leaf.validFrom);
  const notAfter = new Date(leaf.validTo);
  if (notAfter <= now) refuse('expired', { date: notAfter.toISOString() });
  if (notBefore > now) refuse('notYetValid', { date: notBefore.toISOString() });
  return {
    chainPem: `${chain.map((c) => c.toString().trim()).join('\n')}\n`,
    privateKeyPem: `${key.export({ format: 'pem', type: 'pkcs8' }).toString().trim()}\n`,
    fingerprint: leaf.fingerprint256,
    notBefore: notBefore.toISOString(),
    notAfter: notAfter.toISOString(),
    issuer: /(?:^|\n)CN=([^\n]+)/.exec(leaf.issuer)?.[1] ?? leaf.issuer,
    names,
  };
}
