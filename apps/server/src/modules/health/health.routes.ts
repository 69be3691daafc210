import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { THealthService } from './health.service';

export interface THealthRoutesOptions {
  health: THealthService;
}

const ZHealth = z.object({ status: z.string() });
const tags = ['health'];

export async function healthRoutes(app: FastifyInstance, options: THealthRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/healthz',
    {
      schema: {
        tags,
        summary: 'Tell whether the process is up',
        operationId: 'getHealth',
        response: { 200: ZHealth },
      },
    },
    async () => ({
      status: 'ok',
    }),
  );

  r.get(
    '/readyz',
    {
      schema: {
        tags,
        summary: 'Tell whether the database is reachable and migrated',
        operationId: 'getReadiness',
        response: { 200: ZHealth, 503: ZHealth },
      },
    },
    async (request, reply) => {
      const readiness = await options.health.readiness();
      if (readiness.status === 'database_unreachable') {
        request.log.warn({ err: readiness.error }, 'database unreachable');
      }
      if (readiness.status !== 'ready') return reply.code(503).send({ status: readiness.status });
      return { status: 'ready' };
    },
  );
}
