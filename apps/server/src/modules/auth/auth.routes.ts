import { ZLoginResponse, ZLoginTwoFactorInput } from '@portico/shared/auth/account';
import {
  ZCsrfTokenResponse,
  ZLoginInput,
  ZPublicUser,
  ZRegisterInput,
} from '@portico/shared/auth/schemas';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error';
import { errorResponses } from '../../lib/error-responses';
import { perIpAndIdentifier, type TAuthRateLimits } from '../../lib/rate-limits';
import { SESSION_COOKIE, startSession } from '../sessions/session-info';
import type { TTwoFactorService } from '../two-factor/two-factor.service';
import type { TTwoFactorPolicy } from '../users/two-factor-policy';
import { toPublicUser } from '../users/users.service';
import type { TAuthService } from './auth.service';

export interface TAuthRoutesOptions {
  auth: TAuthService;
  rateLimits: TAuthRateLimits;
  twoFactor: TTwoFactorService;
  twoFactorPolicy: TTwoFactorPolicy;
}

const ZUserEnvelope = z.object({ user: ZPublicUser });
const tags = ['auth'];
/** Between the password and the code: longer than an app needs to show a fresh code. */
const TWO_FACTOR_PENDING_MS = 5 * 60 * 1000;
// Signing in and out is for browsers: an API token is refused here.
const config = { sessionOnly: true };

export async function authRoutes(app: FastifyInstance, options: TAuthRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { auth, twoFactor } = options;
  const publicUser = (row: Parameters<typeof toPublicUser>[0]) =>
    toPublicUser(row, options.twoFactorPolicy);

  r.get(
    '/api/csrf-token',
    {
      schema: {
        tags,
        summary: 'Get the CSRF token a browser session sends with every write',
        operationId: 'getCsrfToken',
        response: { 200: ZCsrfTokenResponse },
      },
    },
    async (_request, reply) => ({ token: reply.generateCsrf() }),
  );

  r.get(
    '/api/auth/options',
    {
      schema: {
        tags,
        summary: 'Tell whether registration is open',
        operationId: 'getAuthOptions',
        response: { 200: z.object({ registration: z.enum(['open', 'closed']) }) },
      },
    },
    async () => ({ registration: auth.registration }),
  );

  r.post(
    '/api/register',
    {
      schema: {
        tags,
        summary: 'Create an account and sign in',
        operationId: 'register',
        body: ZRegisterInput,
        response: { 201: ZUserEnvelope, ...errorResponses(403, 409, 429) },
      },
      config,
      preHandler: app.routeLimit(
        'register',
        perIpAndIdentifier(
          options.rateLimits.register,
          (request) => (request.body as { username: string }).username,
        ),
      ),
    },
    async (request, reply) => {
      const user = await auth.register(request.body);
      await startSession(request, user.id);
      return reply.code(201).send({ user: publicUser(user) });
    },
  );

  r.post(
    '/api/login',
    {
      schema: {
        tags,
        summary: 'Sign in with e-mail and password',
        operationId: 'login',
        body: ZLoginInput,
        response: { 200: ZLoginResponse, ...errorResponses(401, 403, 429) },
      },
      config,
      // Per account, whatever spelling names it (and per address).
      preHandler: app.routeLimit(
        'login',
        perIpAndIdentifier(options.rateLimits.login, (request) =>
          auth.limitKey((request.body as { identifier: string }).identifier),
        ),
      ),
    },
    async (request) => {
      const user = await auth.login(request.body);
      if (user.totpEnabledAt !== null) {
        // A new session that is not signed in: it only remembers who gave the right password.
        await request.session.regenerate();
        request.session.twoFactorPending = { userId: user.id, since: Date.now() };
        return { twoFactorRequired: true as const };
      }
      await startSession(request, user.id);
      return { user: publicUser(user) };
    },
  );

  r.post(
    '/api/login/two-factor',
    {
      schema: {
        tags,
        summary: 'Finish signing in with a two-factor or recovery code',
        operationId: 'loginTwoFactor',
        body: ZLoginTwoFactorInput,
        response: { 200: ZUserEnvelope, ...errorResponses(401, 403, 429) },
      },
      config,
      // Counted per account being signed in to, like passwords are per name tried.
      preHandler: app.routeLimit(
        'two-factor',
        perIpAndIdentifier(
          options.rateLimits.twoFactor,
          (request) => request.session.twoFactorPending?.userId ?? `ip:${request.ip}`,
        ),
      ),
    },
    async (request) => {
      const pending = request.session.twoFactorPending;
      if (!pending || Date.now() - pending.since > TWO_FACTOR_PENDING_MS) {
        throw new AppError('two_factor_expired', 401);
      }
      const user = await auth.currentUser(pending.userId);
      if (!user || user.totpEnabledAt === null) throw new AppError('two_factor_expired', 401);
      if (!(await twoFactor.signIn(user, request.body.code))) {
        throw new AppError('two_factor_invalid', 401);
      }
      await startSession(request, user.id);
      return { user: publicUser(user) };
    },
  );

  r.post(
    '/api/logout',
    {
      schema: {
        tags,
        summary: 'Sign out of this session',
        operationId: 'logout',
        response: { 200: z.object({ success: z.boolean() }) },
      },
      config,
    },
    async (request, reply) => {
      await request.session.destroy();
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return { success: true };
    },
  );

  r.get(
    '/api/auth/user',
    {
      schema: {
        tags,
        summary: 'Get the signed-in user',
        operationId: 'getCurrentUser',
        response: { 200: ZPublicUser, ...errorResponses(401, 403) },
      },
      config: { beforeTwoFactorSetup: true },
      preValidation: app.requireUser,
    },
    async (request) => {
      // Through a token the request carries user rights only; the answer still tells the
      // account as it is.
      const row = request.apiToken ? await auth.currentUser(request.user!.id) : request.user;
      return publicUser(row!);
    },
  );
}
