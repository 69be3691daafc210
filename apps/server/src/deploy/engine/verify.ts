import type tls from 'node:tls';
import { renderText, type TText } from '@portico/shared/i18n/text';
import { httpRequest, type THttpRequestOptions } from '../../net/http';
import { tlsConnect } from '../../net/tcp';
import { secureContextFor, trustedRoots } from '../../net/tls-probe';
import { StepError } from './failure';
import type { EngineLog } from './logger';
import { msg, quantity } from './messages';

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

/** A network failure of ours, with its words as a text (the reader's language later). */
class VerifyError extends Error {
  constructor(
    readonly text: TText,
    readonly code?: string,
  ) {
    super(renderText('en', text));
  }
}

/** Why a connection or request failed: our words, or Node's (verbatim). */
function reasonOf(error: Error): TText {
  return error instanceof VerifyError ? error.text : error.message;
}

interface THandshake {
  cert: tls.PeerCertificate;
  /** The protocol agreed by ALPN: 'h2' when nginx serves HTTP/2. */
  alpn: string | false | null;
}

function handshake(input: TVerifyInput, secureContext: tls.SecureContext): Promise<THandshake> {
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({
      host: input.serverIp,
      port: 443,
      servername: input.domain,
      secureContext,
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
        new VerifyError(
          msg('verify.noTlsAnswer', { seconds: quantity(ATTEMPT_TIMEOUT_MS / 1000) }),
          'ETIMEDOUT',
        ),
      );
    });
    socket.once('error', reject);
  });
}

function fetchHome(input: TVerifyInput, secureContext: tls.SecureContext): Promise<number> {
  const options: THttpRequestOptions = {
    protocol: 'https:',
    host: input.serverIp,
    port: 443,
    servername: input.domain,
    path: '/',
    method: 'GET',
    headers: { host: input.domain, 'user-agent': 'Portico deployment check' },
    secureContext,
    timeout: 15_000,
    agent: false,
  };
  return new Promise((resolve, reject) => {
    const request = httpRequest(options);
    request.once('response', (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.once('timeout', () => {
      request.destroy(new VerifyError(msg('verify.noAnswer', { seconds: quantity(15) })));
    });
    request.once('error', reject);
    request.end();
  });
}

function describeTlsError(error: Error & { code?: string }, input: TVerifyInput): TText {
  const where = `${input.serverIp}:443`;
  const code = error.code ? ` (${error.code})` : '';
  if (
    error.code === 'ECONNREFUSED' ||
    error.code === 'ETIMEDOUT' ||
    error.code === 'EHOSTUNREACH'
  ) {
    return msg('verify.tlsConnect', { where, code, reason: reasonOf(error) });
  }
  return msg('verify.tlsInvalid', {
    domain: input.domain,
    where,
    code,
    reason: reasonOf(error),
  });
}

/**
 * Step 7b, from the Portico host: TLS to the server's address with the domain as SNI, chain
 * checked against the system roots (plus the extra CA file), then one request through the proxy.
 */
export async function verifyStep(
  input: TVerifyInput,
  log: EngineLog,
): Promise<{ expiresAt: Date; warnings: TText[] }> {
  log.info(msg('verify.connecting', { serverIp: input.serverIp, domain: input.domain }));
  const context = secureContextFor(await trustedRoots(input.extraCaFile));
  const started = Date.now();
  let shake: THandshake | undefined;
  let last: (Error & { code?: string }) | undefined;
  while (!shake) {
    try {
      shake = await handshake(input, context);
    } catch (error) {
      last = error as Error & { code?: string };
      if (Date.now() - started > RETRY_FOR_MS) {
        throw new StepError('verification_failed', 'verify', describeTlsError(last, input));
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  const { cert, alpn } = shake;
  const expiresAt = new Date(cert.valid_to);
  const named = cert.issuer?.CN ?? cert.issuer?.O;
  const issuer: TText = named ? String(named) : msg('verify.unnamedIssuer');
  log.success(
    msg('verify.works', {
      http2: alpn === 'h2' ? ' (HTTP/2)' : '',
      domain: input.domain,
      issuer,
      expires: { date: expiresAt.toISOString() },
    }),
  );

  const warnings: TText[] = [];
  try {
    const status = await fetchHome(input, context);
    if (UPSTREAM_ERRORS.has(status)) {
      warnings.push(
        msg('verify.upstreamError', { status, domain: input.domain, target: input.target }),
      );
    } else {
      log.info(msg('verify.status', { domain: input.domain, status }));
    }
  } catch (error) {
    warnings.push(
      msg('verify.requestFailed', {
        domain: input.domain,
        reason: reasonOf(error as Error),
        target: input.target,
      }),
    );
  }
  for (const w of warnings) log.warning(w);
  return { expiresAt, warnings };
}
