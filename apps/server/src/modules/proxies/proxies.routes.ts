import { pickLanguage, ZApiError } from '@portico/shared/api-error';
import {
  ZCheckDuplicateInput,
  ZCheckDuplicateResponse,
  ZDeleteProxyQuery,
  ZEditProxyInput,
  ZIdParams,
  ZProxyConfiguration,
  ZSaveProxyInput,
  ZSaveProxyResponse,
} from '@portico/shared/proxy/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { TProxiesService } from './proxies.service';

export interface TProxiesRoutesOptions {
  proxies: TProxiesService;
}

const tags = ['proxies'];
const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError, 409: ZApiError };

export async function proxiesRoutes(app: FastifyInstance, options: TProxiesRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { proxies } = options;
  const preHandler = app.requireUser;

  r.post(
    '/api/proxy-configurations',
    {
      schema: { tags, body: ZSaveProxyInput, response: { 200: ZSaveProxyResponse, ...errors } },
      preHandler,
    },
    async (request) => ({ id: await proxies.save(request.user!, request.body) }),
  );

  r.get(
    '/api/proxy-configurations/:id',
    {
      schema: { tags, params: ZIdParams, response: { 200: ZProxyConfiguration, ...errors } },
      preHandler,
    },
    async (request) => proxies.get(request.user!, request.params.id),
  );

  r.get(
    '/api/user/proxy-configurations',
    { schema: { tags, response: { 200: z.array(ZProxyConfiguration), ...errors } }, preHandler },
    async (request) => proxies.listMine(request.user!),
  );

  r.put(
    '/api/user/proxy-configurations/:id',
    {
      schema: {
        tags,
        params: ZIdParams,
        body: ZEditProxyInput,
        response: { 200: ZProxyConfiguration, ...errors },
      },
      preHandler,
    },
    async (request) => proxies.edit(request.user!, request.params.id, request.body),
  );

  r.post(
    '/api/check-duplicate-configuration',
    {
      schema: {
        tags,
        body: ZCheckDuplicateInput,
        response: { 200: ZCheckDuplicateResponse, ...errors },
      },
      preHandler,
    },
    async (request) => ({
      isDuplicate: await proxies.isDuplicate(request.body.domain, request.body.configurationId),
    }),
  );

  r.patch(
    '/api/proxy-configurations/:id/reset',
    {
      schema: { tags, params: ZIdParams, response: { 200: ZProxyConfiguration, ...errors } },
      preHandler,
    },
    async (request) => proxies.reset(request.user!, request.params.id),
  );

  r.delete(
    '/api/proxy-configurations/:id/host-key',
    {
      schema: {
        tags,
        summary: 'Forget the pinned SSH host key; the next connection pins the key it meets',
        params: ZIdParams,
        response: { 200: ZProxyConfiguration, ...errors },
      },
      preHandler,
    },
    async (request) => proxies.forgetHostKey(request.user!, request.params.id),
  );

  r.delete(
    '/api/proxy-configurations/:id',
    {
      schema: {
        tags,
        params: ZIdParams,
        querystring: ZDeleteProxyQuery,
        response: {
          200: z.object({ success: z.literal(true), removedFromServer: z.boolean() }),
          ...errors,
          500: ZApiError,
          502: ZApiError,
        },
      },
      preHandler,
    },
    async (request) => {
      const language = pickLanguage(request.headers['accept-language']);
      const result = await proxies.remove(request.user!, request.params.id, {
        ...request.query,
        language,
      });
      return { success: true as const, ...result };
    },
  );
}
