import {
  ZEmailChangeInput,
  ZPasswordChangeInput,
  ZProfileInput,
} from '@portico/shared/auth/account';
import { ZPublicUser } from '@portico/shared/auth/schemas';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../lib/error-responses';
import type { TEndpointLimits } from '../../lib/rate-limits';
import { sessionCaller } from '../sessions/sessions.service';
import type { TTwoFactorPolicy } from '../two-factor/two-factor-policy';
import { toPublicUser } from '../users/users.service';
import type { TAccountService } from './account.service';

export const ACCOUNT_TAGS = ['account'];
export const ACCOUNT_ERRORS = errorResponses(400, 401, 403, 404, 409, 429);

/** The rate limit on checks of the password or a code made while signed in, per account. */
export function reauthLimit(app: FastifyInstance, limits: TEndpointLimits) {
  return app.authRateLimit('reauth', limits, (request) => request.user!.id);
}

export async function accountRoutes(
  app: FastifyInstance,
  options: { account: TAccountService; reauth: TEndpointLimits; policy: TTwoFactorPolicy },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { account } = options;
  const config = { sessionOnly: true };
  const tags = ACCOUNT_TAGS;
  const reauth = reauthLimit(app, options.reauth);

  r.put(
    '/api/account/profile',
    {
      schema: { tags, body: ZProfileInput, response: { 200: ZPublicUser, ...ACCOUNT_ERRORS } },
      config,
      preValidation: app.requireUser,
    },
    async (request) =>
      toPublicUser(await account.updateProfile(request.user!, request.body), options.policy),
  );

  r.put(
    '/api/account/email',
    {
      schema: { tags, body: ZEmailChangeInput, response: { 200: ZPublicUser, ...ACCOUNT_ERRORS } },
      config,
      preValidation: app.requireUser,
      preHandler: reauth,
    },
    async (request) =>
      toPublicUser(await account.changeEmail(request.user!, request.body), options.policy),
  );

  r.put(
    '/api/account/password',
    {
      schema: {
        tags,
        body: ZPasswordChangeInput,
        response: { 200: z.object({ endedSessions: z.number() }), ...ACCOUNT_ERRORS },
      },
      config,
      preValidation: app.requireUser,
      preHandler: reauth,
    },
    async (request) => account.changePassword(sessionCaller(request), request.body),
  );
}
