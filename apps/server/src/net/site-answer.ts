import { createHash } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { TLSSocket } from 'node:tls';

/**
 * How a site answers a visitor, from the Portico host: a GET of `/` at the server's address with
 * the domain as Host (and SNI over HTTPS). What a conversion compares before and after it
 * rewrites a site (engine/convert-site.ts), so the certificate is read, not checked: a
 * self-signed one must compare equal to itself.
 */
export interface TSiteAnswer {
  status: number;
  /** The answer's `Location`, when it redirects. */
  location: string | null;
  /** sha256 of the body (at most `BODY_LIMIT` bytes read). */
  bodySha256: string;
  /** The served certificate's SHA-256 fingerprint over HTTPS; null over HTTP. */
  certificate: string | null;
}

const BODY_LIMIT = 1024 * 1024;
const TIMEOUT_MS = 10_000;

export function siteAnswer(serverIp: string, domain: string, tls: boolean): Promise<TSiteAnswer> {
  return new Promise((resolve, reject) => {
    const options = {
      host: serverIp,
      port: tls ? 443 : 80,
      path: '/',
      headers: { host: domain, 'user-agent': 'Portico' },
      agent: false as const,
      timeout: TIMEOUT_MS,
    };
    const onAnswer = (response: http.IncomingMessage) => {
      const socket = response.socket as TLSSocket;
      const certificate = tls ? (socket.getPeerCertificate?.()?.fingerprint256 ?? null) : null;
      const hash = createHash('sha256');
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        if (read >= BODY_LIMIT) return;
        const part = chunk.subarray(0, BODY_LIMIT - read);
        read += part.length;
        hash.update(part);
      });
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          location: response.headers.location ?? null,
          bodySha256: hash.digest('hex'),
          certificate,
        }),
      );
      response.on('error', reject);
    };
    const request = tls
      ? https.get({ ...options, servername: domain, rejectUnauthorized: false }, onAnswer)
      : http.get(options, onAnswer);
    request.on('timeout', () => request.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
    request.on('error', reject);
  });
}

/**
 * The answers are the same in what a visitor sees: status, redirect, certificate, and the body
 * unless `body` is false (a site whose body changes from one request to the next).
 */
export function sameAnswer(a: TSiteAnswer, b: TSiteAnswer, body = true): boolean {
  return (
    a.status === b.status &&
    a.location === b.location &&
    (!body || a.bodySha256 === b.bodySha256) &&
    a.certificate === b.certificate
  );
}

/** One line for the log and the failure: what was seen. */
export function describeAnswer(a: TSiteAnswer): string {
  const cert = a.certificate ? `, certificate ${a.certificate.slice(0, 23)}…` : '';
  return `${a.status}${a.location ? ` → ${a.location}` : ''}, body sha256 ${a.bodySha256.slice(0, 12)}…${cert}`;
}
