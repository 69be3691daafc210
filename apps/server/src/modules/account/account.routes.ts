import {
  ZEmailChangeInput,
  ZPasswordChanged,
  ZPasswordChangeInput,
  ZProfileInput,
} from '@portico/shared/auth/account';
import { ZPublicUser } from '@portico/shared/auth/schemas';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ACCOUNT_ERRORS, ACCOUNT_TAGS, reauthLimit } from '../../lib/account-routes';
import type { TEndpointLimits } from '../../lib/rate-limits';
import { sessionCaller } from '../sessions/sessions.service';
import type { TTwoFactorPolicy } from '../users/two-factor-policy';
import { toPublicUser } from '../users/users.service';
import type { TAccountService } from './account.service';

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
      schema: {
        tags,
        summary: 'Change the display name',
        operationId: 'updateProfile',
        body: ZProfileInput,
        response: { 200: ZPublicUser, ...ACCOUNT_ERRORS },
      },
      config,
      preValidation: app.requireUser,
    },
    async (request) =>
      toPublicUser(await account.updateProfile(request.user!, request.body), options.policy),
  );

  r.put(
    '/api/account/email',
    {
      schema: {
        tags,
        summary: 'Change the e-mail address',
        operationId: 'changeEmail',
        body: ZEmailChangeInput,
        response: { 200: ZPublicUser, ...ACCOUNT_ERRORS },
      },
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
        summary: 'Change the password',
        operationId: 'changePassword',
        body: ZPasswordChangeInput,
        response: { 200: ZPasswordChanged, ...ACCOUNT_ERRORS },
      },
      config,
      preValidation: app.requireUser,
      preHandler: reauth,
    },
    async (request) => account.changePassword(sessionCaller(request), request.body),
  );
}
