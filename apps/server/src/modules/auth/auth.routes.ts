import { ZApiError } from '@portico/shared/api-error';
import {
  ZCsrfTokenResponse,
  ZLoginInput,
  ZPublicUser,
  ZRegisterInput,
} from '@portico/shared/auth/schemas';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { TAuthRateLimits } from '../../plugins/rate-limit';
import { SESSION_COOKIE } from '../../plugins/session';
import { toPublicUser } from '../users/users.service';
import type { TAuthService } from './auth.service';

export interface TAuthRoutesOptions {
  auth: TAuthService;
  rateLimits: TAuthRateLimits;
}

const ZUserEnvelope = z.object({ user: ZPublicUser });
const tags = ['auth'];

/** Starts a fresh session for the user: a new id, so a session fixed before login is useless. */
async function signIn(request: FastifyRequest, userId: string) {
  await request.session.regenerate();
  request.session.userId = userId;
}

export async function authRoutes(app: FastifyInstance, options: TAuthRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { auth } = options;

  r.get(
    '/api/csrf-token',
    { schema: { tags, response: { 200: ZCsrfTokenResponse } } },
    async (_request, reply) => ({ token: reply.generateCsrf() }),
  );

  r.get(
    '/api/auth/options',
    { schema: { tags, response: { 200: z.object({ registration: z.enum(['open', 'closed']) }) } } },
    async () => ({ registration: auth.registration }),
  );

  r.post(
    '/api/register',
    {
      schema: {
        tags,
        body: ZRegisterInput,
        response: { 201: ZUserEnvelope, 403: ZApiError, 409: ZApiError, 429: ZApiError },
      },
      preHandler: app.authRateLimit(
        'register',
        options.rateLimits.register,
        (request) => (request.body as { username: string }).username,
      ),
    },
    async (request, reply) => {
      const user = await auth.register(request.body);
      await signIn(request, user.id);
      return reply.code(201).send({ user: toPublicUser(user) });
    },
  );

  r.post(
    '/api/login',
    {
      schema: {
        tags,
        body: ZLoginInput,
        response: { 200: ZUserEnvelope, 401: ZApiError, 429: ZApiError },
      },
      preHandler: app.authRateLimit(
        'login',
        options.rateLimits.login,
        (request) => (request.body as { identifier: string }).identifier,
      ),
    },
    async (request) => {
      const user = await auth.login(request.body);
      await signIn(request, user.id);
      return { user: toPublicUser(user) };
    },
  );

  r.post(
    '/api/logout',
    { schema: { tags, response: { 200: z.object({ success: z.boolean() }) } } },
    async (request, reply) => {
      await request.session.destroy();
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return { success: true };
    },
  );

  r.get(
    '/api/auth/user',
    {
      schema: { tags, response: { 200: ZPublicUser, 401: ZApiError } },
      preHandler: app.requireUser,
    },
    async (request) => toPublicUser(request.user!),
  );
}
