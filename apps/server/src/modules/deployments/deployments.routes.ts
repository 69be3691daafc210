import { pickLanguage } from '@portico/shared/api-error';
import {
  ZConfigurationIdParams,
  ZDeploymentLogEntry,
  ZDeployResponse,
  ZIdParams,
} from '@portico/shared/proxy/api';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../lib/error-responses';
import type { TDeploymentsService } from './deployments.service';

const tags = ['deployments'];
const errors = errorResponses(400, 401, 403, 404, 409);

export async function deploymentsRoutes(
  app: FastifyInstance,
  options: { deployments: TDeploymentsService },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { deployments } = options;
  const preValidation = app.requireUser;

  /** Both ways in queue a run in the caller's language and answer 202 at once. */
  async function start(
    request: FastifyRequest,
    reply: FastifyReply,
    configurationId: string,
    kind: 'deploy' | 'redeploy',
  ) {
    const language = pickLanguage(request.headers['accept-language']);
    const id = await deployments.start(request.user!, configurationId, kind, language);
    return reply.code(202).send({ success: true as const, deploymentId: id });
  }

  r.post(
    '/api/deploy/:configurationId',
    {
      schema: {
        tags,
        summary: 'Start deploying a proxy',
        operationId: 'deployProxy',
        params: ZConfigurationIdParams,
        response: { 202: ZDeployResponse, ...errors },
      },
      preValidation,
    },
    async (request, reply) => start(request, reply, request.params.configurationId, 'deploy'),
  );

  r.post(
    '/api/proxy-configurations/:id/redeploy',
    {
      schema: {
        tags,
        summary: 'Start deploying a proxy again',
        operationId: 'redeployProxy',
        params: ZIdParams,
        response: { 202: ZDeployResponse, ...errors },
      },
      preValidation,
    },
    async (request, reply) => start(request, reply, request.params.id, 'redeploy'),
  );

  r.get(
    '/api/deployment-logs/:id',
    {
      schema: {
        tags,
        summary: "Read a proxy's deployment log",
        operationId: 'getDeploymentLog',
        params: ZIdParams,
        response: { 200: z.array(ZDeploymentLogEntry), ...errors },
      },
      preValidation,
      // Of the configuration only its owner is read (the 404 for another's), which
      // `deployment_logs` covers: an edit leaves this answer kept.
      config: { cachedAnswer: { madeOf: ['deployment_logs'] } },
    },
    async (request) =>
      deployments.logs(
        request.user!,
        request.params.id,
        pickLanguage(request.headers['accept-language']),
      ),
  );
}
