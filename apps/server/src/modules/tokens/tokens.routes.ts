import { ZApiToken, ZCreatedToken, ZCreateTokenInput } from '@portico/shared/auth/account';
import { ZIdParams } from '@portico/shared/proxy/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ACCOUNT_ERRORS, ACCOUNT_TAGS, reauthLimit } from '../../lib/account-routes';
import type { TEndpointLimits } from '../../lib/rate-limits';
import type { TTokensService } from './tokens.service';

/** Tokens are managed from a browser session only: a token cannot mint or list tokens. */
export async function tokensRoutes(
  app: FastifyInstance,
  options: { tokens: TTokensService; reauth: TEndpointLimits },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { tokens } = options;
  const common = { config: { sessionOnly: true }, preValidation: app.requireUser };
  const tags = ACCOUNT_TAGS;

  r.get(
    '/api/account/tokens',
    {
      schema: {
        tags,
        summary: 'List your API tokens',
        operationId: 'listApiTokens',
        response: { 200: z.array(ZApiToken), ...ACCOUNT_ERRORS },
      },
      ...common,
    },
    async (request) => tokens.list(request.user!),
  );

  r.post(
    '/api/account/tokens',
    {
      schema: {
        tags,
        summary: 'Create an API token (its secret is shown once)',
        operationId: 'createApiToken',
        body: ZCreateTokenInput,
        response: { 201: ZCreatedToken, ...ACCOUNT_ERRORS },
      },
      ...common,
      // The password or code it asks for is counted with the other checks of them.
      preHandler: reauthLimit(app, options.reauth),
    },
    async (request, reply) =>
      reply.code(201).send(await tokens.create(request.user!, request.body)),
  );

  r.delete(
    '/api/account/tokens/:id',
    {
      schema: {
        tags,
        summary: 'Revoke an API token',
        operationId: 'revokeApiToken',
        params: ZIdParams,
        response: { 200: z.object({ success: z.literal(true) }), ...ACCOUNT_ERRORS },
      },
      ...common,
    },
    async (request) => {
      await tokens.revoke(request.user!, request.params.id);
      return { success: true as const };
    },
  );
}
