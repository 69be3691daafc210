import {
  ZAdminProxyRow,
  ZAdminUser,
  ZAuditPage,
  ZAuditQuery,
  ZProxiesByUser,
  ZRoleChange,
  ZUserStats,
} from '@portico/shared/admin/api';
import { ZApiError } from '@portico/shared/api-error';
import { ZEditProxyInput, ZIdParams, ZProxyConfiguration } from '@portico/shared/proxy/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { languageOf } from '../proxies/proxies.routes';
import type { TAdminService } from './admin.service';

export interface TAdminRoutesOptions {
  admin: TAdminService;
}

const tags = ['admin'];
const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError, 409: ZApiError };

export async function adminRoutes(app: FastifyInstance, options: TAdminRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { admin } = options;
  const preHandler = app.requireAdmin;

  r.get(
    '/api/admin/stats/users',
    { schema: { tags, response: { 200: ZUserStats, ...errors } }, preHandler },
    async () => admin.userStats(),
  );

  r.get(
    '/api/admin/stats/proxies-by-user',
    { schema: { tags, response: { 200: ZProxiesByUser, ...errors } }, preHandler },
    async () => admin.proxiesByUser(),
  );

  r.get(
    '/api/admin/all-proxies',
    { schema: { tags, response: { 200: z.array(ZAdminProxyRow), ...errors } }, preHandler },
    async () => admin.allProxies(),
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
      preHandler,
    },
    async (request) =>
      admin.editProxy(request.user!, request.params.id, request.body, languageOf(request)),
  );

  r.get(
    '/api/admin/audit-log',
    {
      schema: { tags, querystring: ZAuditQuery, response: { 200: ZAuditPage, ...errors } },
      preHandler,
    },
    async (request) => admin.auditLog(request.query),
  );

  r.get(
    '/api/admin/users',
    { schema: { tags, response: { 200: z.array(ZAdminUser), ...errors } }, preHandler },
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
      preHandler,
    },
    async (request) => admin.changeRole(request.user!, request.params.id, request.body.role),
  );
}
