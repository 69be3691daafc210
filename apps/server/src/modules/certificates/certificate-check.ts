import { sampleName } from '@portico/shared/certificates/dns-challenge';
import type {
  TCertificateCheck,
  TKeyText,
  TServedCertificate,
} from '@portico/shared/certificates/schemas';
import {
  certificateNames,
  httpHead,
  issuerName,
  redirectsToHttps,
  type THandshake,
  type TProbeTarget,
  tlsHandshake,
} from '../../net/tls-probe';

/** Each look at the site gets this long (TLS, then HTTP). */
export const CHECK_TIMEOUT_MS = 10_000;
/** A refused or silent connection is tried once more after this pause (a reload in progress). */
const RETRY_AFTER_MS = 2_000;

export interface TCheckOutcome {
  check: TCertificateCheck;
  /** The certificate the server presented, when it presented one. */
  served: TServedCertificate | null;
}

const text = (key: string, params: Record<string, string | number>): TKeyText => ({
  key: `certificates.${key}`,
  params,
});

/** `tls.PeerCertificate.valid_to` ("Mar  1 12:00:00 2026 GMT") as ISO 8601. */
function iso(value: string): string {
  return new Date(value).toISOString();
}

export function servedFacts(cert: THandshake['cert']): TServedCertificate {
  return {
    fingerprint: cert.fingerprint256,
    notBefore: iso(cert.valid_from),
    notAfter: iso(cert.valid_to),
    issuer: issuerName(cert) ?? '?',
    names: certificateNames(cert),
  };
}

/** Why a certificate the server presented does not verify, in words. */
function verifyProblem(shake: THandshake, target: TProbeTarget, where: string): TKeyText {
  const code = shake.authorizationError ?? 'UNKNOWN';
  const { domain } = target;
  switch (code) {
    case 'CERT_HAS_EXPIRED':
      return text('problem.expired', { domain });
    case 'CERT_NOT_YET_VALID':
      return text('problem.notYetValid', { domain });
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return text('problem.names', {
        domain,
        where,
        names: certificateNames(shake.cert).join(', ') || '?',
      });
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
      return text('problem.untrusted', { domain, code });
    default:
      return text('problem.invalid', { domain, code });
  }
}

/** Why no certificate came back at all. */
function connectProblem(
  error: Error & { code?: string },
  target: TProbeTarget,
  timeoutMs: number,
): TKeyText {
  const where = `${target.address}:${target.httpsPort ?? 443}`;
  if (error.code === 'ECONNREFUSED') return text('problem.refused', { where });
  if (error.code === 'ETIMEDOUT') {
    return text('problem.timeout', { where, seconds: timeoutMs / 1000 });
  }
  if (error.code?.startsWith('ERR_SSL') || /ssl|tls|handshake/i.test(error.message)) {
    return text('problem.tls', { where, domain: target.domain, reason: error.message });
  }
  return text('problem.connect', { where, reason: error.message });
}

async function handshakeWithRetry(
  target: TProbeTarget,
  ca: string[],
  timeoutMs: number,
): Promise<THandshake> {
  const attempt = () => tlsHandshake(target, { ca, timeoutMs, rejectUnauthorized: false });
  try {
    return await attempt();
  } catch {
    await new Promise((r) => setTimeout(r, RETRY_AFTER_MS));
    return attempt();
  }
}

async function redirectCheck(
  target: TProbeTarget,
  timeoutMs: number,
): Promise<Pick<TCertificateCheck, 'httpRedirects' | 'httpProblem'>> {
  const { domain } = target;
  try {
    const answer = await httpHead(target, {
      timeoutMs,
      userAgent: 'Portico certificate check',
    });
    if (redirectsToHttps(answer, domain)) return { httpRedirects: true, httpProblem: null };
    const problem = answer.location
      ? text('http.elsewhere', { domain, location: answer.location })
      : text('http.noRedirect', { domain, status: answer.status });
    return { httpRedirects: false, httpProblem: problem };
  } catch (error) {
    return {
      httpRedirects: null,
      httpProblem: text('http.unreachable', { domain, reason: (error as Error).message }),
    };
  }
}

/**
 * The live check of one site from the Portico host, no SSH: the certificate served at the
 * server's address for the domain, whether its chain verifies for the domain (system roots and
 * the extra CA file), and whether plain HTTP still redirects to HTTPS. Never throws; every wait
 * is bounded (at most two TLS attempts and one HTTP request, CHECK_TIMEOUT_MS each).
 */
export async function checkCertificate(
  site: TProbeTarget,
  options: { ca: string[]; now: () => Date; timeoutMs?: number },
): Promise<TCheckOutcome> {
  // A wildcard site is checked as one of its subdomains.
  const target = { ...site, domain: sampleName(site.domain) };
  const timeoutMs = options.timeoutMs ?? CHECK_TIMEOUT_MS;
  const where = `${target.address}:${target.httpsPort ?? 443}`;
  let served: TServedCertificate | null = null;
  let problem: TKeyText | null = null;
  try {
    const shake = await handshakeWithRetry(target, options.ca, timeoutMs);
    served = servedFacts(shake.cert);
    if (!shake.authorized) problem = verifyProblem(shake, target, where);
  } catch (error) {
    problem = connectProblem(error as Error & { code?: string }, target, timeoutMs);
  }
  const http = await redirectCheck(target, timeoutMs);
  return {
    served,
    check: {
      checkedAt: options.now().toISOString(),
      ok: problem === null,
      problem,
      ...http,
    },
  };
}
