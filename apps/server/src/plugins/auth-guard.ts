import type { FastifyInstance, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { TUserRow } from '../db/schema';
import { AppError } from '../lib/app-error';
import type { TAuthService } from '../modules/auth/auth.service';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by requireUser / requireAdmin for the handlers behind them. */
    user: TUserRow | null;
  }
  interface FastifyInstance {
    requireUser: preValidationAsyncHookHandler;
    requireAdmin: preValidationAsyncHookHandler;
  }
}

export interface TAuthGuardOptions {
  auth: TAuthService;
  /**
   * Runs once the caller's account is known and may refuse (it throws) or narrow it: the user
   * the route then sees is what it returns (modules/two-factor/caller-policy.ts).
   */
  checkCaller?: (request: FastifyRequest, user: TUserRow) => TUserRow;
}

/**
 * Each route's preValidation (docs/CODE_STYLE.md, the route contract): 401 when signed out, 403
 * for a non-admin on admin routes, before the body is looked at.
 */
async function authGuardPlugin(app: FastifyInstance, options: TAuthGuardOptions) {
  app.decorateRequest('user', null);

  /**
   * Read on every request so a demotion or a deleted account takes effect at once: with the
   * session in one query when the session was read from the table (PostgreSQL), else by id (on
   * PGlite, from the users cache that every change here keeps current). An API token
   * (plugins/api-token.ts, read from its table on every request) names its owner instead, and
   * the session cookie it may also carry is ignored.
   */
  async function userOf(request: FastifyRequest): Promise<TUserRow | null> {
    if (request.apiToken) return options.auth.currentUser(request.apiToken.userId);
    const userId = request.session?.userId;
    if (!userId) return null;
    const loaded = request.sessionUser;
    // Only while the session still names the account it named when read (a sign-in since then
    // changes it).
    if (loaded && loaded.userId === userId) return loaded.user;
    return options.auth.currentUser(userId);
  }

  const requireUser: preValidationAsyncHookHandler = async (request) => {
    const user = await userOf(request);
    if (!user) throw new AppError('unauthenticated', 401);
    request.user = options.checkCaller ? options.checkCaller(request, user) : user;
  };

  app.decorate('requireUser', requireUser);
  app.decorate('requireAdmin', async function requireAdmin(request, reply) {
    await requireUser.call(this, request, reply);
    if (request.user?.role !== 'admin') throw new AppError('forbidden', 403);
  });
}

export const authGuard = fp(authGuardPlugin, { name: 'portico-auth-guard' });
