import { asksForPage } from '@portico/shared/lists/page';
import {
  ZCheckDuplicateInput,
  ZCheckDuplicateResponse,
  ZDeleteProxyQuery,
  ZEditProxyInput,
  ZIdParams,
  ZProxyConfiguration,
  ZProxyListQuery,
  ZProxyPage,
  ZSaveProxyInput,
  ZSaveProxyResponse,
} from '@portico/shared/proxy/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../lib/error-responses';
import type { TProxiesService } from './proxies.service';

export interface TProxiesRoutesOptions {
  proxies: TProxiesService;
}

const tags = ['proxies'];
const errors = errorResponses(400, 401, 403, 404, 409);

export async function proxiesRoutes(app: FastifyInstance, options: TProxiesRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { proxies } = options;
  const preValidation = app.requireUser;

  r.post(
    '/api/proxy-configurations',
    {
      schema: {
        tags,
        summary: "Save a proxy: a new one, or the caller's own given its configurationId",
        operationId: 'createProxy',
        body: ZSaveProxyInput,
        response: { 200: ZSaveProxyResponse, ...errors },
      },
      preValidation,
    },
    async (request) => ({ id: await proxies.save(request.user!, request.body) }),
  );

  r.get(
    '/api/proxy-configurations/:id',
    {
      schema: {
        tags,
        summary: 'Get one of your proxies',
        operationId: 'getProxy',
        params: ZIdParams,
        response: { 200: ZProxyConfiguration, ...errors },
      },
      preValidation,
      config: { cachedAnswer: { madeOf: ['proxy_configurations'] } },
    },
    async (request) => proxies.get(request.user!, request.params.id, request.language),
  );

  r.get(
    '/api/user/proxy-configurations',
    {
      schema: {
        tags,
        summary: 'List your proxies: all of them, or a page when any list parameter is given',
        operationId: 'listProxies',
        querystring: ZProxyListQuery,
        response: { 200: z.union([z.array(ZProxyConfiguration), ZProxyPage]), ...errors },
      },
      preValidation,
      // The whole list is kept; a page is not: its certificate filter and counts are made of
      // certificate_status and the time, which no answer version follows.
      config: { cachedAnswer: { madeOf: ['proxy_configurations'], unless: asksForPage } },
    },
    async (request) => proxies.list(request.user!, request.query, request.language),
  );

  r.put(
    '/api/user/proxy-configurations/:id',
    {
      schema: {
        tags,
        summary: 'Edit one of your proxies',
        operationId: 'updateProxy',
        params: ZIdParams,
        body: ZEditProxyInput,
        response: { 200: ZProxyConfiguration, ...errors },
      },
      preValidation,
    },
    async (request) =>
      proxies.edit(request.user!, request.params.id, request.body, {
        language: request.language,
      }),
  );

  r.post(
    '/api/check-duplicate-configuration',
    {
      schema: {
        tags,
        summary: 'Tell whether a domain already has a proxy',
        operationId: 'checkDuplicateDomain',
        body: ZCheckDuplicateInput,
        response: { 200: ZCheckDuplicateResponse, ...errors },
      },
      preValidation,
    },
    async (request) =>
      proxies.duplicateOf(request.user!, request.body.domain, request.body.configurationId),
  );

  r.patch(
    '/api/proxy-configurations/:id/reset',
    {
      schema: {
        tags,
        summary: 'Set a proxy back to pending so it can be deployed again',
        operationId: 'resetProxy',
        params: ZIdParams,
        response: { 200: ZProxyConfiguration, ...errors },
      },
      preValidation,
    },
    async (request) => proxies.reset(request.user!, request.params.id, request.language),
  );

  r.delete(
    '/api/proxy-configurations/:id/host-key',
    {
      schema: {
        tags,
        summary: 'Forget the pinned SSH host key; the next connection pins the key it meets',
        operationId: 'forgetHostKey',
        params: ZIdParams,
        response: { 200: ZProxyConfiguration, ...errors },
      },
      preValidation,
    },
    async (request) => proxies.forgetHostKey(request.user!, request.params.id, request.language),
  );

  r.delete(
    '/api/proxy-configurations/:id',
    {
      schema: {
        tags,
        summary: 'Delete a proxy, and by default remove it from its server',
        operationId: 'deleteProxy',
        params: ZIdParams,
        querystring: ZDeleteProxyQuery,
        response: {
          200: z.object({ success: z.literal(true), removedFromServer: z.boolean() }),
          ...errors,
          ...errorResponses(500, 502),
        },
      },
      preValidation,
    },
    async (request) => {
      const result = await proxies.remove(request.user!, request.params.id, {
        ...request.query,
        language: request.language,
      });
      return { success: true as const, ...result };
    },
  );
}
