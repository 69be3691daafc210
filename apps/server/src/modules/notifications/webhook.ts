import { type ClientRequest, httpRequest } from '../../net/http';
import { isIP, type LookupFunction } from '../../net/tcp';
import { allowedAddresses, bareHost, refusal, WebhookAddressError } from './webhook-address';

/** A webhook gets this long, from the name lookup to the last byte of its answer. */
export const WEBHOOK_DEADLINE_MS = 10_000;

/**
 * What a call did. The far side is quoted by nothing but its status: no body, no header, no
 * socket error text, since a user who may aim the webhook at a private address could otherwise
 * read internal pages or tell ports apart (docs/SECURITY.md). Every way of not getting an HTTP
 * answer (refused, reset, hung up, not HTTP, TLS, no answer in time) is one `unreachable`;
 * `cause` (the Node error code, or "timeout") is for the operator's log only.
 */
export type TWebhookOutcome =
  | { delivered: true; status: number }
  | { delivered: false; reason: 'address'; error: WebhookAddressError }
  | { delivered: false; reason: 'redirect'; status: number }
  | { delivered: false; reason: 'status'; status: number }
  | { delivered: false; reason: 'unreachable'; cause: string };

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
 * not delivered), never reads an answer's body, never waits past the deadline, never throws.
 * `unreachableAtDeadline`: a connection that fails is reported at the deadline, as one that never
 * answers is, so how long the answer took does not tell a closed port from a silent one either.
 */
export function postWebhook(
  url: string,
  body: unknown,
  options: {
    allowPrivate: boolean;
    deadlineMs?: number;
    userAgent?: string;
    unreachableAtDeadline?: boolean;
  },
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
    let request: ClientRequest | undefined;
    let cause = 'timeout';
    const deadline = setTimeout(
      () => finish({ delivered: false, reason: 'unreachable', cause }),
      deadlineMs,
    );
    const unreachable = (why: string) => {
      if (settled || cause !== 'timeout') return;
      cause = why;
      if (!options.unreachableAtDeadline)
        finish({ delivered: false, reason: 'unreachable', cause });
      else request?.destroy();
    };
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      unreachable('invalid URL');
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
    request = httpRequest(
      {
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
      },
      target,
    );
    request.once('response', (response) => {
      const status = response.statusCode ?? 0;
      if (status >= 200 && status < 300) {
        finish({ delivered: true, status });
        return;
      }
      if (status >= 300 && status < 400) {
        finish({ delivered: false, reason: 'redirect', status });
        return;
      }
      finish({ delivered: false, reason: 'status', status });
    });
    // `on`, not `once`: a request destroyed after its first error may report another.
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (refusedBy) finish({ delivered: false, reason: 'address', error: refusedBy });
      else unreachable(error.code ?? error.name);
    });
    request.end(payload);
  });
}
