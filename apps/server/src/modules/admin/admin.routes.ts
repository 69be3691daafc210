import {
  ZAdminProxyRow,
  ZAdminUser,
  ZAuditPage,
  ZAuditQuery,
  ZProxiesByUser,
  ZRoleChange,
  ZUserStats,
} from '@portico/shared/admin/api';
import { ZEditProxyInput, ZIdParams, ZProxyConfiguration } from '@portico/shared/proxy/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../lib/error-responses';
import { languageOf } from '../proxies/proxies.routes';
import type { TAdminService } from './admin.service';

export interface TAdminRoutesOptions {
  admin: TAdminService;
}

const tags = ['admin'];
const errors = errorResponses(400, 401, 403, 404, 409);

export async function adminRoutes(app: FastifyInstance, options: TAdminRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { admin } = options;
  const preValidation = app.requireAdmin;

  r.get(
    '/api/admin/stats/users',
    { schema: { tags, response: { 200: ZUserStats, ...errors } }, preValidation },
    async () => admin.userStats(),
  );

  r.get(
    '/api/admin/stats/proxies-by-user',
    { schema: { tags, response: { 200: ZProxiesByUser, ...errors } }, preValidation },
    async () => admin.proxiesByUser(),
  );

  r.get(
    '/api/admin/all-proxies',
    {
      schema: { tags, response: { 200: z.array(ZAdminProxyRow), ...errors } },
      preValidation,
      config: { cachedAnswer: { madeOf: ['proxy_configurations', 'users'] } },
    },
    async (request) => admin.allProxies(languageOf(request)),
  );

  r.put(
    '/api/admin/proxy-configurations/:id',
    {
      schema: {
        tags,
        params: ZIdParams,
        body: ZEditProxyInput,
        response: { 200: ZProxyConfiguration, ...errors },
      },
      preValidation,
    },
    async (request) =>
      admin.editProxy(request.user!, request.params.id, request.body, languageOf(request)),
  );

  r.get(
    '/api/admin/audit-log',
    {
      schema: { tags, querystring: ZAuditQuery, response: { 200: ZAuditPage, ...errors } },
      preValidation,
    },
    async (request) => admin.auditLog(request.query),
  );

  r.get(
    '/api/admin/users',
    { schema: { tags, response: { 200: z.array(ZAdminUser), ...errors } }, preValidation },
    async () => admin.listUsers(),
  );

  r.patch(
    '/api/admin/users/:id/role',
    {
      schema: {
        tags,
        params: ZIdParams,
        body: ZRoleChange,
        response: { 200: ZAdminUser, ...errors },
      },
      preValidation,
    },
    async (request) => admin.changeRole(request.user!, request.params.id, request.body.role),
  );
}
