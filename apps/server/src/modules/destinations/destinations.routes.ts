import { ZDestinationInput, ZDestinationUpdate } from '@portico/shared/admin/destinations';
import { ZDestinationServer, ZIdParams } from '@portico/shared/proxy/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../lib/error-responses';
import type { TDestinationsService } from './destinations.service';

export interface TDestinationsRoutesOptions {
  destinations: TDestinationsService;
}

const tags = ['destinations'];
const errors = errorResponses(400, 401, 403, 404);

export async function destinationsRoutes(
  app: FastifyInstance,
  options: TDestinationsRoutesOptions,
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { destinations } = options;

  r.get(
    '/api/destination-servers',
    {
      schema: {
        tags,
        summary: 'List the destination servers',
        operationId: 'listDestinationServers',
        response: { 200: z.array(ZDestinationServer), ...errorResponses(401) },
      },
      preValidation: app.requireUser,
    },
    async () => destinations.list(),
  );

  r.post(
    '/api/admin/destination-servers',
    {
      schema: {
        tags,
        summary: 'Add a destination server (admin)',
        operationId: 'createDestinationServer',
        body: ZDestinationInput,
        response: { 201: ZDestinationServer, ...errors },
      },
      preValidation: app.requireAdmin,
    },
    async (request, reply) => reply.code(201).send(await destinations.create(request.body)),
  );

  r.put(
    '/api/admin/destination-servers/:id',
    {
      schema: {
        tags,
        summary: 'Change a destination server (admin)',
        operationId: 'updateDestinationServer',
        params: ZIdParams,
        body: ZDestinationUpdate,
        response: { 200: ZDestinationServer, ...errors },
      },
      preValidation: app.requireAdmin,
    },
    async (request) => destinations.update(request.params.id, request.body),
  );

  r.delete(
    '/api/admin/destination-servers/:id',
    {
      schema: {
        tags,
        summary: 'Remove a destination server (admin)',
        operationId: 'deleteDestinationServer',
        params: ZIdParams,
        response: { 200: z.object({ success: z.literal(true) }), ...errors },
      },
      preValidation: app.requireAdmin,
    },
    async (request) => {
      await destinations.remove(request.params.id);
      return { success: true as const };
    },
  );
}
