import {
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';

/** Never a password, cookie or token in a log line, whatever a plugin decides to log. */
export const LOG_REDACTION = {
  paths: [
    'req.headers.cookie',
    'req.headers.authorization',
    'req.headers["x-csrf-token"]',
    'res.headers["set-cookie"]',
    '*.password',
    '*.passwordHash',
    '*.sshPassword',
  ],
  censor: '[redacted]',
};

const REDACTED = '[redacted]';
// Portico's API tokens (`ptk_` and base64url), wherever a URL carries one, `_` encoded or not.
const TOKEN_SHAPED = /ptk(?:_|%5f)[A-Za-z0-9_%-]*/gi;
// Query parameters whose value is a credential by their name, whatever the value looks like.
const SECRET_PARAMETER = /token|secret|passw|auth|signature|session|key$/i;

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replaceAll('+', ' '));
  } catch {
    return name;
  }
}

function redactedParameter(pair: string): string {
  const equals = pair.indexOf('=');
  const name = (equals === -1 ? pair : pair.slice(0, equals)).replace(TOKEN_SHAPED, REDACTED);
  if (equals === -1) return name;
  if (SECRET_PARAMETER.test(decodedName(name))) return `${name}=${REDACTED}`;
  return `${name}=${pair.slice(equals + 1).replace(TOKEN_SHAPED, REDACTED)}`;
}

/**
 * A URL as it may be logged: a token-shaped value anywhere and the value of a parameter named
 * like a credential (`token`, `access_token`, `api_key`, ...) replaced. A token sent in the URL
 * is refused, but the URL would still reach the log. Most URLs have neither a query nor `ptk`,
 * and are returned as they are.
 */
export function loggedUrl(url: string): string {
  const query = url.indexOf('?');
  if (query === -1 && !url.includes('ptk')) return url;
  const path = (query === -1 ? url : url.slice(0, query)).replace(TOKEN_SHAPED, REDACTED);
  if (query === -1) return path;
  return `${path}?${url
    .slice(query + 1)
    .split('&')
    .map(redactedParameter)
    .join('&')}`;
}

const requestOf = (request: FastifyRequest) => ({
  method: request.method,
  url: loggedUrl(request.url),
});

/**
 * One line per request (Fastify's default is two: received, completed), with no header, cookie
 * or body in it: method, path, status, time, client address.
 */
export class OneLinePerRequest extends LogController {
  private lines: FastifyBaseLogger | undefined;

  /**
   * The line of a request that succeeded is written without the redaction pass: it holds five
   * plain values that no redaction path can match, and the pass (which visits every key for the
   * `*.` paths) took about half of the line's cost. A failed request's line, which carries the
   * error, goes through the request's own logger, redaction included.
   */
  useLogger(logger: FastifyBaseLogger): void {
    this.lines = logger.child({}, { redact: [] });
  }

  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const line = {
      method: request.method,
      url: loggedUrl(request.url),
      statusCode: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      ip: request.ip,
    };
    if (error) request.log.error({ ...line, err: error }, 'request');
    else if (this.lines) this.lines.info({ reqId: request.id, ...line }, 'request');
    else request.log.info(line, 'request');
  }

  // Fastify's own lines that name the URL, where its default handlers run: its `req` with the
  // URL redacted like the request's line.
  override routeNotFound(request: FastifyRequest): void {
    request.log.info({ req: requestOf(request) }, 'route not found');
  }

  override defaultErrorLog(error: Error, request: FastifyRequest, reply: FastifyReply): void {
    const line = { req: requestOf(request), err: error };
    if (reply.statusCode >= 500) request.log.error(line, error?.message);
    else request.log.info(line, error?.message);
  }

  override writeHeadError(error: Error, request: FastifyRequest): void {
    request.log.warn({ req: requestOf(request), err: error }, error?.message);
  }
}

type TLogArgs = [unknown, ...unknown[]];
type TLogMethod = (...args: TLogArgs) => void;
const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;

/**
 * A request's logger, made into pino's child at its first line. Fastify makes a child for every
 * request, and pino's child runs the redaction pass over its bindings when made: most requests
 * log nothing of their own (their one line goes through `OneLinePerRequest`).
 */
class RequestLogger {
  #child: FastifyBaseLogger | undefined;
  readonly #parent: FastifyBaseLogger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;
  declare fatal: TLogMethod;
  declare error: TLogMethod;
  declare warn: TLogMethod;
  declare info: TLogMethod;
  declare debug: TLogMethod;
  declare trace: TLogMethod;

  constructor(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  /** The pino child, made now if it was not yet. */
  made(): FastifyBaseLogger {
    this.#child ??= this.#parent.child(this.#bindings, this.#options);
    return this.#child;
  }

  get level(): string {
    return this.#child?.level ?? this.#options.level ?? this.#parent.level;
  }

  set level(level: string) {
    this.made().level = level;
  }

  silent() {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.made().child(bindings, options);
  }
}

for (const level of LEVELS) {
  RequestLogger.prototype[level] = function (this: RequestLogger, ...args: TLogArgs) {
    (this.made()[level] as TLogMethod)(...args);
  };
}

export const requestLoggerFactory: NonNullable<FastifyServerOptions['childLoggerFactory']> = (
  logger,
  bindings,
  options,
) => new RequestLogger(logger, bindings, options) as unknown as FastifyBaseLogger;
