import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import tls from 'node:tls';

/**
 * Looks at a site from the Portico host, the way a visitor's browser does: TLS to the server's
 * address with the domain as SNI, and a plain HTTP request with the domain as Host. Used by the
 * deployment's verify step and by the certificate watch. Each call ends by its deadline whatever
 * the other side does (silence, a trickle of bytes, a half-open connection).
 */

/** The system roots plus the operator's extra CA file (PORTICO_EXTRA_CA_FILE), if any. */
export async function trustedRoots(extraCaFile?: string): Promise<string[]> {
  const roots = [...tls.rootCertificates];
  if (extraCaFile) roots.push(await readFile(extraCaFile, 'utf8'));
  return roots;
}

const contexts = new Map<string, tls.SecureContext>();

/**
 * One TLS context per set of trusted roots, made once: making one parses every root, tens of
 * milliseconds of CPU during which the server answers no one, and the verify step and the
 * certificate watch connect to sites all the time (ten deployments at once held the API's p99
 * at 170 ms). Keyed by the roots' content, so a changed extra CA file gets a context of its own.
 */
export function secureContextFor(ca: string[]): tls.SecureContext {
  const key = createHash('sha256').update(ca.join('\n')).digest('hex');
  let context = contexts.get(key);
  if (!context) {
    if (contexts.size >= 8) contexts.clear();
    context = tls.createSecureContext({ ca });
    contexts.set(key, context);
  }
  return context;
}

export interface THandshake {
  cert: tls.DetailedPeerCertificate;
  /** The chain verifies against `ca` and the certificate names the domain. */
  authorized: boolean;
  /** OpenSSL's or Node's code when not authorized, e.g. CERT_HAS_EXPIRED. */
  authorizationError: string | null;
  /** The protocol agreed by ALPN: 'h2' when nginx serves HTTP/2. */
  alpn: string | false | null;
}

export interface TProbeTarget {
  /** Where to connect: the server's address, never a DNS answer for the domain. */
  address: string;
  domain: string;
  /** 443 and 80 unless told (tests run their own servers on free ports). */
  httpsPort?: number;
  httpPort?: number;
}

/** A probe that did not get an answer in time; `code` ETIMEDOUT like a socket's own. */
export class ProbeTimeout extends Error {
  readonly code = 'ETIMEDOUT';
  constructor(readonly seconds: number) {
    super(`no answer within ${seconds} s`);
  }
}

/**
 * One TLS handshake. With `rejectUnauthorized` (the verify step) a certificate that does not
 * verify fails the call; without it (the watch) the certificate comes back with why it does not.
 */
export function tlsHandshake(
  target: TProbeTarget,
  options: { ca: string[]; timeoutMs: number; rejectUnauthorized: boolean },
): Promise<THandshake> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({
      host: target.address,
      port: target.httpsPort ?? 443,
      servername: target.domain,
      secureContext: secureContextFor(options.ca),
      ALPNProtocols: ['h2', 'http/1.1'],
      rejectUnauthorized: options.rejectUnauthorized,
    });
    const deadline = setTimeout(() => {
      socket.destroy();
      reject(new ProbeTimeout(options.timeoutMs / 1000));
    }, options.timeoutMs);
    socket.once('secureConnect', () => {
      clearTimeout(deadline);
      const cert = socket.getPeerCertificate(true);
      const result: THandshake = {
        cert,
        authorized: socket.authorized,
        authorizationError: socket.authorized
          ? null
          : String(socket.authorizationError ?? 'UNKNOWN'),
        alpn: socket.alpnProtocol,
      };
      socket.end();
      socket.destroy();
      resolve(result);
    });
    socket.once('error', (error) => {
      clearTimeout(deadline);
      socket.destroy();
      reject(error);
    });
  });
}

/** The names a certificate is valid for, from its subjectAltName ("DNS:a, DNS:b"). */
export function certificateNames(cert: tls.PeerCertificate): string[] {
  const names = (cert.subjectaltname ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.startsWith('DNS:'))
    .map((entry) => entry.slice(4));
  const cn = cert.subject?.CN;
  if (names.length === 0 && typeof cn === 'string') names.push(cn);
  return names;
}

/** The issuer as people know it: its common name, else its organisation. */
export function issuerName(cert: tls.PeerCertificate): string | null {
  const named = cert.issuer?.CN ?? cert.issuer?.O;
  if (named === undefined) return null;
  return Array.isArray(named) ? named.join(' ') : String(named);
}

export interface THttpAnswer {
  status: number;
  location: string | null;
}

/**
 * One plain-HTTP GET of `/` at the server's address with the domain as Host; only the status
 * line and headers are read. Redirects are reported, never followed.
 */
export function httpHead(
  target: TProbeTarget,
  options: { timeoutMs: number; userAgent: string },
): Promise<THttpAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.request({
      host: target.address,
      port: target.httpPort ?? 80,
      path: '/',
      method: 'GET',
      headers: { host: target.domain, 'user-agent': options.userAgent },
      agent: false,
    });
    const deadline = setTimeout(() => {
      request.destroy(new ProbeTimeout(options.timeoutMs / 1000));
    }, options.timeoutMs);
    request.once('response', (response) => {
      clearTimeout(deadline);
      const location = response.headers.location ?? null;
      resolve({ status: response.statusCode ?? 0, location });
      response.destroy();
      request.destroy();
    });
    request.once('error', (error) => {
      clearTimeout(deadline);
      reject(error);
    });
    request.end();
  });
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** The answer sends the visitor to https://<domain>/… */
export function redirectsToHttps(answer: THttpAnswer, domain: string): boolean {
  if (!REDIRECTS.has(answer.status) || !answer.location) return false;
  try {
    const url = new URL(answer.location);
    return url.protocol === 'https:' && url.hostname.toLowerCase() === domain.toLowerCase();
  } catch {
    return false;
  }
}
