import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { allowedAddresses, bareHost, refusal, WebhookAddressError } from './webhook-address';

/** A webhook gets this long, from the name lookup to the last byte of its answer. */
export const WEBHOOK_DEADLINE_MS = 10_000;
/** Enough of an error answer to quote it; the rest is not read. */
const MAX_ANSWER_BYTES = 2048;

export type TWebhookOutcome =
  | { delivered: true; status: number }
  | { delivered: false; reason: 'address'; error: WebhookAddressError }
  | { delivered: false; reason: 'redirect'; status: number; location: string }
  | { delivered: false; reason: 'status'; status: number; body: string }
  | { delivered: false; reason: 'timeout'; seconds: number }
  | { delivered: false; reason: 'network'; message: string };

/**
 * The connection goes to an address the policy allowed, looked up here at connect time: the
 * name cannot answer one address to the check and another to the connection.
 */
function checkedLookup(allowPrivate: boolean, refused: (e: WebhookAddressError) => void) {
  return ((
    hostname: string,
    options: { all?: boolean },
    callback: (...args: unknown[]) => void,
  ) => {
    allowedAddresses(hostname, allowPrivate).then(
      (answers) => {
        if (options?.all) callback(null, answers);
        else callback(null, answers[0]!.address, answers[0]!.family);
      },
      (error: unknown) => {
        if (error instanceof WebhookAddressError) refused(error);
        callback(error);
      },
    );
  }) as unknown as LookupFunction;
}

/**
 * POSTs `body` as JSON to a user's webhook URL. Never follows a redirect (a 3xx is reported as
 * not delivered, with where it pointed), never waits past the deadline, never throws.
 */
export function postWebhook(
  url: string,
  body: unknown,
  options: { allowPrivate: boolean; deadlineMs?: number; userAgent?: string },
): Promise<TWebhookOutcome> {
  const deadlineMs = options.deadlineMs ?? WEBHOOK_DEADLINE_MS;
  const payload = Buffer.from(JSON.stringify(body), 'utf8');
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: TWebhookOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      request?.destroy();
      resolve(outcome);
    };
    let refusedBy: WebhookAddressError | undefined;
    let request: http.ClientRequest | undefined;
    const deadline = setTimeout(
      () => finish({ delivered: false, reason: 'timeout', seconds: deadlineMs / 1000 }),
      deadlineMs,
    );
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      finish({ delivered: false, reason: 'network', message: 'invalid URL' });
      return;
    }
    // Node connects to an address literal without asking the lookup: judge it here.
    const literal = bareHost(target.hostname);
    const why = isIP(literal) ? refusal(literal, options.allowPrivate) : null;
    if (why) {
      const error = new WebhookAddressError(why, literal, literal);
      finish({ delivered: false, reason: 'address', error });
      return;
    }
    const client = target.protocol === 'https:' ? https : http;
    request = client.request(target, {
      method: 'POST',
      agent: false,
      lookup: checkedLookup(options.allowPrivate, (error) => {
        refusedBy = error;
      }),
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'content-length': payload.length,
        'user-agent': options.userAgent ?? 'Portico certificate alerts',
      },
    });
    request.once('response', (response) => {
      const status = response.statusCode ?? 0;
      if (status >= 200 && status < 300) {
        finish({ delivered: true, status });
        return;
      }
      if (status >= 300 && status < 400) {
        const location = String(response.headers.location ?? '');
        finish({ delivered: false, reason: 'redirect', status, location });
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () =>
        finish({
          delivered: false,
          reason: 'status',
          status,
          body: Buffer.concat(chunks).toString('utf8').slice(0, MAX_ANSWER_BYTES).trim(),
        });
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= MAX_ANSWER_BYTES) done();
      });
      response.once('end', done);
      response.once('error', done);
    });
    request.once('error', (error) => {
      if (refusedBy) finish({ delivered: false, reason: 'address', error: refusedBy });
      else finish({ delivered: false, reason: 'network', message: error.message });
    });
    request.end(payload);
  });
}
