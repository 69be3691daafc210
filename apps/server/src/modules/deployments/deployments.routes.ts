import {
  ZApplyPlanInput,
  ZConfigurationIdParams,
  ZDeploymentLogEntry,
  ZDeployPlan,
  ZDeployResponse,
  ZIdParams,
  ZPlanInput,
} from '@portico/shared/proxy/api';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../lib/error-responses';
import type { TPlansService } from './deploy-plans';
import type { TDeploymentsService } from './deployments.service';

/** Plans a user may ask for in a minute: each opens an SSH session on their server. */
export const PLANS_PER_MINUTE = 10;

const tags = ['deployments'];
const errors = errorResponses(400, 401, 403, 404, 409);

export async function deploymentsRoutes(
  app: FastifyInstance,
  options: { deployments: TDeploymentsService; plans: TPlansService },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { deployments, plans } = options;
  const preValidation = app.requireUser;

  /** Both ways in queue a run in the caller's language and answer 202 at once. */
  async function start(
    request: FastifyRequest,
    reply: FastifyReply,
    configurationId: string,
    kind: 'deploy' | 'redeploy',
  ) {
    const language = request.language;
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

  r.post(
    '/api/proxy-configurations/:id/plan',
    {
      schema: {
        tags,
        summary: 'Show what deploying a proxy would change on its server',
        description:
          'Reads the files a deployment writes over SSH (read-only) and answers each with a ' +
          'unified diff, the commands the deployment runs and whether nginx is reloaded. ' +
          'Nothing is written. The body may carry a new `targetServer` to plan an edit before ' +
          'saving it. Pass `fingerprint` to apply.',
        operationId: 'planProxyDeployment',
        params: ZIdParams,
        body: ZPlanInput,
        response: { 200: ZDeployPlan, ...errorResponses(400, 401, 403, 404, 409, 429, 500, 502) },
      },
      preValidation,
      // Each plan opens an SSH session on the user's server, as a connection test does.
      preHandler: app.routeLimit('plan-deployment', [
        { max: PLANS_PER_MINUTE, windowMs: 60_000, by: 'user' },
      ]),
    },
    async (request) => plans.plan(request.user!, request.params.id, request.body, request.language),
  );

  r.post(
    '/api/proxy-configurations/:id/apply',
    {
      schema: {
        tags,
        summary: 'Deploy a proxy as planned, unless its server changed since',
        description:
          'Starts the deployment the plan showed. Before writing anything it reads the files ' +
          'again: when they differ from the plan (someone edited one), the run fails with ' +
          '`server_changed` and nothing is written.',
        operationId: 'applyProxyPlan',
        params: ZIdParams,
        body: ZApplyPlanInput,
        response: { 202: ZDeployResponse, ...errors },
      },
      preValidation,
    },
    async (request, reply) => {
      const language = request.language;
      const id = await plans.apply(
        request.user!,
        request.params.id,
        request.body.fingerprint,
        language,
      );
      return reply.code(202).send({ success: true as const, deploymentId: id });
    },
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
    async (request) => deployments.logs(request.user!, request.params.id, request.language),
  );
}
