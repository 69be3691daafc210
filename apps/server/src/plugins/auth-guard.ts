import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
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
    requireUser: preHandlerAsyncHookHandler;
    requireAdmin: preHandlerAsyncHookHandler;
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

/** preHandlers for routes: 401 when signed out, 403 for a non-admin on admin routes. */
async function authGuardPlugin(app: FastifyInstance, options: TAuthGuardOptions) {
  app.decorateRequest('user', null);

  const requireUser: preHandlerAsyncHookHandler = async (request) => {
    // Loaded on every request so a demotion or a deleted account takes effect at once.
    // An API token (plugins/api-token.ts) names its owner; otherwise the session cookie does.
    const userId = request.apiToken ? request.apiToken.userId : request.session?.userId;
    const user = await options.auth.currentUser(userId);
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
