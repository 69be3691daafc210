import { readFile } from 'node:fs/promises';
import https from 'node:https';
import tls from 'node:tls';
import { StepError } from './failure';
import type { EngineLog } from './logger';
import { say } from './messages';

const ATTEMPT_TIMEOUT_MS = 10_000;
/** Retries cover a reload that is live but whose old workers still hold a few connections. */
const RETRY_FOR_MS = 8_000;
const UPSTREAM_ERRORS = new Set([502, 503, 504]);

export interface TVerifyInput {
  domain: string;
  serverIp: string;
  /** The normalised target, named in the warning when nginx cannot reach it. */
  target: string;
  extraCaFile?: string;
}

async function trustedRoots(extraCaFile?: string): Promise<string[]> {
  const roots = [...tls.rootCertificates];
  if (extraCaFile) roots.push(await readFile(extraCaFile, 'utf8'));
  return roots;
}

interface THandshake {
  cert: tls.PeerCertificate;
  /** The protocol agreed by ALPN: 'h2' when nginx serves HTTP/2. */
  alpn: string | false | null;
}

function handshake(input: TVerifyInput, ca: string[], log: EngineLog): Promise<THandshake> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({
      host: input.serverIp,
      port: 443,
      servername: input.domain,
      ca,
      ALPNProtocols: ['h2', 'http/1.1'],
      timeout: ATTEMPT_TIMEOUT_MS,
    });
    socket.once('secureConnect', () => {
      const cert = socket.getPeerCertificate();
      const alpn = socket.alpnProtocol;
      socket.end();
      resolve({ cert, alpn });
    });
    socket.once('timeout', () => {
      socket.destroy();
      reject(
        Object.assign(
          new Error(say(log, 'verify.noTlsAnswer', { seconds: ATTEMPT_TIMEOUT_MS / 1000 })),
          { code: 'ETIMEDOUT' },
        ),
      );
    });
    socket.once('error', reject);
  });
}

function fetchHome(input: TVerifyInput, ca: string[], log: EngineLog): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = https.request(
      {
        host: input.serverIp,
        port: 443,
        servername: input.domain,
        path: '/',
        method: 'GET',
        headers: { host: input.domain, 'user-agent': 'Portico deployment check' },
        ca,
        timeout: 15_000,
        agent: false,
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.once('timeout', () => {
      request.destroy(new Error(say(log, 'verify.noAnswer', { seconds: 15 })));
    });
    request.once('error', reject);
    request.end();
  });
}

function describeTlsError(
  error: Error & { code?: string },
  input: TVerifyInput,
  log: EngineLog,
): string {
  const where = `${input.serverIp}:443`;
  const code = error.code ? ` (${error.code})` : '';
  if (
    error.code === 'ECONNREFUSED' ||
    error.code === 'ETIMEDOUT' ||
    error.code === 'EHOSTUNREACH'
  ) {
    return say(log, 'verify.tlsConnect', { where, code, reason: error.message });
  }
  return say(log, 'verify.tlsInvalid', {
    domain: input.domain,
    where,
    code,
    reason: error.message,
  });
}

/**
 * Step 7b, from the Portico host: TLS to the server's address with the domain as SNI, chain
 * checked against the system roots (plus the extra CA file), then one request through the proxy.
 */
export async function verifyStep(
  input: TVerifyInput,
  log: EngineLog,
): Promise<{ expiresAt: Date; warnings: string[] }> {
  log.info(say(log, 'verify.connecting', { serverIp: input.serverIp, domain: input.domain }));
  const ca = await trustedRoots(input.extraCaFile);
  const started = Date.now();
  let shake: THandshake | undefined;
  let last: (Error & { code?: string }) | undefined;
  while (!shake) {
    try {
      shake = await handshake(input, ca, log);
    } catch (error) {
      last = error as Error & { code?: string };
      if (Date.now() - started > RETRY_FOR_MS) {
        throw new StepError('verification_failed', 'verify', describeTlsError(last, input, log));
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  const { cert, alpn } = shake;
  const expiresAt = new Date(cert.valid_to);
  const issuer = cert.issuer?.CN ?? cert.issuer?.O ?? say(log, 'verify.unnamedIssuer');
  log.success(
    say(log, 'verify.works', {
      http2: alpn === 'h2' ? ' (HTTP/2)' : '',
      domain: input.domain,
      issuer: String(issuer),
      expires: expiresAt.toISOString(),
    }),
  );

  const warnings: string[] = [];
  try {
    const status = await fetchHome(input, ca, log);
    if (UPSTREAM_ERRORS.has(status)) {
      warnings.push(
        say(log, 'verify.upstreamError', { status, domain: input.domain, target: input.target }),
      );
    } else {
      log.info(say(log, 'verify.status', { domain: input.domain, status }));
    }
  } catch (error) {
    warnings.push(
      say(log, 'verify.requestFailed', {
        domain: input.domain,
        reason: (error as Error).message,
        target: input.target,
      }),
    );
  }
  for (const w of warnings) log.warning(w);
  return { expiresAt, warnings };
}
