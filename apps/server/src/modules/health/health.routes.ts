import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { TDatabase } from '../../db/client';
import { migrationsApplied } from '../../db/migrate';

export interface THealthRoutesOptions {
  database: TDatabase;
}

const ZHealth = z.object({ status: z.string() });
const tags = ['health'];

export async function healthRoutes(app: FastifyInstance, options: THealthRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/healthz', { schema: { tags, response: { 200: ZHealth } } }, async () => ({
    status: 'ok',
  }));

  r.get(
    '/readyz',
    { schema: { tags, response: { 200: ZHealth, 503: ZHealth } } },
    async (request, reply) => {
      try {
        await options.database.ping();
      } catch (error) {
        request.log.warn({ err: error }, 'database unreachable');
        return reply.code(503).send({ status: 'database_unreachable' });
      }
      if (!(await migrationsApplied(options.database))) {
        return reply.code(503).send({ status: 'migrations_pending' });
      }
      return { status: 'ready' };
    },
  );
}
