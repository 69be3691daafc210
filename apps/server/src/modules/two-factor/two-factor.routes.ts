import {
  ZReauthInput,
  ZRecoveryCodes,
  ZTwoFactorConfirmed,
  ZTwoFactorConfirmInput,
  ZTwoFactorSetup,
  ZTwoFactorStatus,
} from '@portico/shared/auth/account';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ACCOUNT_ERRORS, ACCOUNT_TAGS, reauthLimit } from '../../lib/account-routes';
import type { TEndpointLimits } from '../../lib/rate-limits';
import { sessionCaller } from '../sessions/sessions.service';
import type { TTwoFactorService } from './two-factor.service';

export async function twoFactorRoutes(
  app: FastifyInstance,
  options: { twoFactor: TTwoFactorService; reauth: TEndpointLimits },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { twoFactor } = options;
  const tags = ACCOUNT_TAGS;
  // Status, setup and confirmation stay open to an account PORTICO_REQUIRE_2FA holds.
  const setupConfig = { sessionOnly: true, beforeTwoFactorSetup: true };
  const config = { sessionOnly: true };
  const checked = reauthLimit(app, options.reauth);

  r.get(
    '/api/account/two-factor',
    {
      schema: {
        tags,
        summary: 'Tell whether two-factor authentication is on',
        operationId: 'getTwoFactorStatus',
        response: { 200: ZTwoFactorStatus, ...ACCOUNT_ERRORS },
      },
      config: setupConfig,
      preValidation: app.requireUser,
    },
    async (request) => twoFactor.status(request.user!),
  );

  r.post(
    '/api/account/two-factor/setup',
    {
      schema: {
        tags,
        summary: 'Start setting up two-factor authentication (secret and QR code)',
        operationId: 'beginTwoFactorSetup',
        response: { 200: ZTwoFactorSetup, ...ACCOUNT_ERRORS },
      },
      config: setupConfig,
      preValidation: app.requireUser,
    },
    async (request) => twoFactor.beginSetup(request.user!),
  );

  r.post(
    '/api/account/two-factor/confirm',
    {
      schema: {
        tags,
        summary: 'Turn on two-factor authentication with a first code',
        operationId: 'confirmTwoFactor',
        body: ZTwoFactorConfirmInput,
        response: { 200: ZTwoFactorConfirmed, ...ACCOUNT_ERRORS },
      },
      config: setupConfig,
      preValidation: app.requireUser,
      preHandler: checked,
    },
    async (request) => twoFactor.confirmSetup(sessionCaller(request), request.body),
  );

  r.post(
    '/api/account/two-factor/disable',
    {
      schema: {
        tags,
        summary: 'Turn off two-factor authentication',
        operationId: 'disableTwoFactor',
        body: ZReauthInput,
        response: { 200: z.object({ success: z.literal(true) }), ...ACCOUNT_ERRORS },
      },
      config,
      preValidation: app.requireUser,
      preHandler: checked,
    },
    async (request) => {
      await twoFactor.disable(request.user!, request.body);
      return { success: true as const };
    },
  );

  r.post(
    '/api/account/two-factor/recovery-codes',
    {
      schema: {
        tags,
        summary: 'Replace the recovery codes with new ones',
        operationId: 'regenerateRecoveryCodes',
        body: ZReauthInput,
        response: { 200: ZRecoveryCodes, ...ACCOUNT_ERRORS },
      },
      config,
      preValidation: app.requireUser,
      preHandler: checked,
    },
    async (request) => ({
      recoveryCodes: await twoFactor.regenerateRecoveryCodes(request.user!, request.body),
    }),
  );
}
