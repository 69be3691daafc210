import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error';
import type { TTokenCaller, TTokensService } from '../modules/tokens/tokens.service';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when the request came with a valid `Authorization: Bearer` API token. */
    apiToken: TTokenCaller | null;
  }
  interface FastifyContextConfig {
    /**
     * Refused to API tokens (403): the route needs a signed-in browser session. Signing in and
     * out, the account itself (profile, password, two-factor, tokens, sessions) and /ws.
     */
    sessionOnly?: boolean;
  }
}

// What a `read` token may send: nothing that changes anything.
const READ_METHODS = new Set(['GET', 'HEAD']);
const BEARER = /^Bearer[ ]+([^\s]+)[ ]*$/i;

export interface TApiTokenPluginOptions {
  tokens: TTokensService;
}

/**
 * Personal API tokens. A request with `Authorization: Bearer <token>` is its token's owner, with
 * user rights only (see modules/two-factor/caller-policy.ts) and only what the scope allows; the
 * session cookie it may also carry is ignored. No CSRF token is needed: a cross-site page cannot
 * make a browser send this header. A bad, revoked or expired token is refused at once, never
 * treated as signed out. Other schemes (Basic from a proxy in front) are left alone.
 */
async function apiTokenPlugin(app: FastifyInstance, options: TApiTokenPluginOptions) {
  app.decorateRequest('apiToken', null);

  /** `header` is an `Authorization: Bearer …` header. */
  async function authenticate(
    request: FastifyRequest,
    reply: FastifyReply,
    header: string,
  ): Promise<void> {
    const token = BEARER.exec(header)?.[1];
    const caller = token ? await options.tokens.authenticate(token) : null;
    if (!caller) {
      reply.header('www-authenticate', 'Bearer error="invalid_token"');
      throw new AppError('invalid_token', 401);
    }
    if (request.routeOptions.config?.sessionOnly) throw new AppError('token_session_only', 403);
    if (caller.scope === 'read' && !READ_METHODS.has(request.method)) {
      throw new AppError('token_scope', 403);
    }
    request.apiToken = caller;
  }

  // A WebSocket upgrade is decided one step later: @fastify/websocket frees the connection of a
  // refused upgrade only if its own onRequest hook (registered after this one) has run.
  const isUpgrade = (request: FastifyRequest) => request.headers.upgrade !== undefined;
  // Callback hooks, not async ones: they run on every request, and most carry no token.
  const authenticated = (
    request: FastifyRequest,
    reply: FastifyReply,
    done: (error?: Error) => void,
  ) => {
    const header = request.headers.authorization;
    if (!header || !/^bearer\b/i.test(header)) done();
    else authenticate(request, reply, header).then(() => done(), done);
  };
  app.addHook('onRequest', (request, reply, done) => {
    if (isUpgrade(request)) done();
    else authenticated(request, reply, done);
  });
  app.addHook('preValidation', (request, reply, done) => {
    if (isUpgrade(request)) authenticated(request, reply, done);
    else done();
  });

  // "Last used" means used successfully; written before the answer leaves, so a caller that
  // reads the list right after sees it.
  app.addHook('onSend', (request, reply, _payload, done) => {
    if (request.apiToken && reply.statusCode < 400) {
      options.tokens.markUsed(request.apiToken.id).then(() => done(), done);
    } else done();
  });
}

export const apiToken = fp(apiTokenPlugin, {
  name: 'portico-api-token',
  dependencies: ['portico-session'],
});
