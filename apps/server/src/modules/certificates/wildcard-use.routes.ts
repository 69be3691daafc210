import {
  ZWildcardChoices,
  ZWildcardOffer,
  ZWildcardOfferQuery,
  ZWildcardUseInput,
} from '@portico/shared/certificates/wildcard-use';
import { ZIdParams } from '@portico/shared/proxy/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../lib/error-responses';
import type { TWildcardUseService } from './wildcard-use.service';

const tags = ['certificates'];
const errors = errorResponses(400, 401, 403, 404, 409);

/** A proxy served with the wildcard certificate of another proxy on its server (issue 41). */
export async function wildcardUseRoutes(
  app: FastifyInstance,
  options: { wildcardUses: TWildcardUseService },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { wildcardUses } = options;
  const preValidation = app.requireUser;

  r.get(
    '/api/certificates/wildcards',
    {
      schema: {
        tags,
        summary: 'Find your wildcard certificate on a server that covers a name',
        operationId: 'findWildcardCertificate',
        querystring: ZWildcardOfferQuery,
        response: { 200: ZWildcardOffer, ...errors },
      },
      preValidation,
    },
    async (request) => wildcardUses.offer(request.user!, request.query),
  );

  r.get(
    '/api/proxy-configurations/:id/certificate/wildcards',
    {
      schema: {
        tags,
        summary: "List the wildcard certificates on a proxy's server that could serve it",
        operationId: 'listWildcardCertificates',
        params: ZIdParams,
        response: { 200: ZWildcardChoices, ...errors },
      },
      preValidation,
    },
    async (request) => wildcardUses.choices(request.user!, request.params.id),
  );

  const path = '/api/proxy-configurations/:id/certificate/wildcard';
  r.put(
    path,
    {
      schema: {
        tags,
        summary: 'Serve a proxy with the wildcard certificate another proxy holds on its server',
        operationId: 'useWildcardCertificate',
        params: ZIdParams,
        body: ZWildcardUseInput,
        response: { 200: ZWildcardChoices, ...errors },
      },
      preValidation,
    },
    async (request) => wildcardUses.use(request.user!, request.params.id, request.body),
  );

  r.delete(
    path,
    {
      schema: {
        tags,
        summary: "Stop serving a proxy with another proxy's wildcard certificate",
        operationId: 'stopUsingWildcardCertificate',
        params: ZIdParams,
        response: { 200: z.object({ success: z.literal(true) }), ...errors },
      },
      preValidation,
    },
    async (request) => {
      await wildcardUses.remove(request.user!, request.params.id);
      return { success: true as const };
    },
  );
}
