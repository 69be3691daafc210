import { ZEndedSessions, ZSessionIdParams, ZSessionInfo } from '@portico/shared/auth/account';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ACCOUNT_ERRORS, ACCOUNT_TAGS } from '../../lib/account-routes';
import { sessionCaller, type TAccountSessions } from './sessions.service';

export async function sessionsRoutes(
  app: FastifyInstance,
  options: { sessions: TAccountSessions },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { sessions } = options;
  const common = { config: { sessionOnly: true }, preValidation: app.requireUser };
  const tags = ACCOUNT_TAGS;

  r.get(
    '/api/account/sessions',
    {
      schema: {
        tags,
        summary: 'List your signed-in sessions',
        operationId: 'listSessions',
        response: { 200: z.array(ZSessionInfo), ...ACCOUNT_ERRORS },
      },
      ...common,
    },
    async (request) => sessions.list(sessionCaller(request)),
  );

  r.delete(
    '/api/account/sessions/:id',
    {
      schema: {
        tags,
        summary: 'End one of your sessions',
        operationId: 'endSession',
        params: ZSessionIdParams,
        response: { 200: z.object({ success: z.literal(true) }), ...ACCOUNT_ERRORS },
      },
      ...common,
    },
    async (request) => {
      await sessions.endOne(sessionCaller(request), request.params.id);
      return { success: true as const };
    },
  );

  r.post(
    '/api/account/sessions/end-others',
    {
      schema: {
        tags,
        summary: 'End every session but this one',
        operationId: 'endOtherSessions',
        response: { 200: ZEndedSessions, ...ACCOUNT_ERRORS },
      },
      ...common,
    },
    async (request) => ({
      ended: await sessions.endOthers(sessionCaller(request)),
    }),
  );
}
