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

  async function authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const header = request.headers.authorization;
    if (!header || !/^bearer\b/i.test(header)) return;
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
  app.addHook('onRequest', async (request, reply) => {
    if (!isUpgrade(request)) await authenticate(request, reply);
  });
  app.addHook('preValidation', async (request, reply) => {
    if (isUpgrade(request)) await authenticate(request, reply);
  });

  // "Last used" means used successfully; written before the answer leaves, so a caller that
  // reads the list right after sees it.
  app.addHook('onSend', async (request, reply) => {
    if (request.apiToken && reply.statusCode < 400) {
      await options.tokens.markUsed(request.apiToken.id);
    }
  });
}

export const apiToken = fp(apiTokenPlugin, {
  name: 'portico-api-token',
  dependencies: ['portico-session'],
});
