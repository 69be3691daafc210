import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
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
}

/** preHandlers for routes: 401 when signed out, 403 for a non-admin on admin routes. */
async function authGuardPlugin(app: FastifyInstance, options: TAuthGuardOptions) {
  app.decorateRequest('user', null);

  const requireUser: preHandlerAsyncHookHandler = async (request) => {
    // Loaded on every request so a demotion or a deleted account takes effect at once.
    const user = await options.auth.currentUser(request.session?.userId);
    if (!user) throw new AppError('unauthenticated', 401);
    request.user = user;
  };

  app.decorate('requireUser', requireUser);
  app.decorate('requireAdmin', async function requireAdmin(request, reply) {
    await requireUser.call(this, request, reply);
    if (request.user?.role !== 'admin') throw new AppError('forbidden', 403);
  });
}

export const authGuard = fp(authGuardPlugin, { name: 'portico-auth-guard' });
