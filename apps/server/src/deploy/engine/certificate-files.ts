import { X509Certificate } from 'node:crypto';
import type { TCertificateFacts } from '@portico/shared/certificates/schemas';
import { certName } from '../site-names';
import { asRoot, type TStepContext } from './step-context';

// The lineage's current certificate, as certbot keeps it (the live/ link points at the newest).
const READ_CERT = `f="/etc/letsencrypt/live/$1/cert.pem"
if [ -r "$f" ]; then cat -- "$f"; else echo PORTICO_NO_CERT=1; fi`;

/** The first PEM certificate in `text`, read with Node's X.509 parser; null when there is none. */
export function certificateFacts(text: string): TCertificateFacts | null {
  const pem = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.exec(text)?.[0];
  if (!pem) return null;
  try {
    const cert = new X509Certificate(pem);
    return {
      fingerprint: cert.fingerprint256,
      notBefore: new Date(cert.validFrom).toISOString(),
      notAfter: new Date(cert.validTo).toISOString(),
    };
  } catch {
    return null;
  }
}

/**
 * certbot's certificate for the domain on the server (its fingerprint and validity), read
 * after a deployment or a certificate action so the watch can tell when nginx serves an older
 * one. Null when the server holds none.
 */
export async function readServerCertificate(
  c: Pick<TStepContext, 'session'>,
  domain: string,
): Promise<TCertificateFacts | null> {
  const r = await asRoot(c.session, READ_CERT, { args: [certName(domain)] });
  if (r.code !== 0 || r.stdout.includes('PORTICO_NO_CERT=1')) return null;
  return certificateFacts(r.stdout);
}
