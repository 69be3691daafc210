import {
  ZAdminProxyPage,
  ZAdminProxyRow,
  ZAdminUser,
  ZAdminUserPage,
  ZAdminUserQuery,
  ZAuditPage,
  ZAuditQuery,
  ZProxiesByUser,
  ZRoleChange,
  ZUserStats,
} from '@portico/shared/admin/api';
import { ZUserLimits, ZUserLimitsChange } from '@portico/shared/admin/limits';
import { asksForPage } from '@portico/shared/lists/page';
import {
  ZEditProxyInput,
  ZIdParams,
  ZProxyConfiguration,
  ZProxyListQuery,
} from '@portico/shared/proxy/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../lib/error-responses';
import type { TLimitsService } from '../limits/limits.service';
import type { TAdminService } from './admin.service';

export interface TAdminRoutesOptions {
  admin: TAdminService;
  limits: TLimitsService;
}

const tags = ['admin'];
const errors = errorResponses(400, 401, 403, 404, 409);

export async function adminRoutes(app: FastifyInstance, options: TAdminRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { admin, limits } = options;
  const preValidation = app.requireAdmin;

  r.get(
    '/api/admin/stats/users',
    {
      schema: {
        tags,
        summary: 'Count the users (admin)',
        operationId: 'getUserStats',
        response: { 200: ZUserStats, ...errors },
      },
      preValidation,
    },
    async () => admin.userStats(),
  );

  r.get(
    '/api/admin/stats/proxies-by-user',
    {
      schema: {
        tags,
        summary: 'Count the proxies of each user (admin)',
        operationId: 'getProxiesByUser',
        response: { 200: ZProxiesByUser, ...errors },
      },
      preValidation,
    },
    async () => admin.proxiesByUser(),
  );

  r.get(
    '/api/admin/all-proxies',
    {
      schema: {
        tags,
        summary:
          'List every proxy of every user, or a page when any list parameter is given (admin)',
        operationId: 'listAllProxies',
        querystring: ZProxyListQuery,
        response: { 200: z.union([z.array(ZAdminProxyRow), ZAdminProxyPage]), ...errors },
      },
      preValidation,
      // A page is not kept: its certificate filter and counts follow certificate_status and time.
      config: {
        cachedAnswer: { madeOf: ['proxy_configurations', 'users'], unless: asksForPage },
      },
    },
    async (request) => admin.allProxies(request.query, request.language),
  );

  r.put(
    '/api/admin/proxy-configurations/:id',
    {
      schema: {
        tags,
        summary: "Edit any user's proxy (admin)",
        operationId: 'updateAnyProxy',
        params: ZIdParams,
        body: ZEditProxyInput,
        response: { 200: ZProxyConfiguration, ...errors },
      },
      preValidation,
    },
    async (request) =>
      admin.editProxy(request.user!, request.params.id, request.body, request.language),
  );

  r.get(
    '/api/admin/audit-log',
    {
      schema: {
        tags,
        summary: 'Read the audit log, a page at a time (admin)',
        operationId: 'listAuditLog',
        querystring: ZAuditQuery,
        response: { 200: ZAuditPage, ...errors },
      },
      preValidation,
    },
    async (request) => admin.auditLog(request.query),
  );

  r.get(
    '/api/admin/users',
    {
      schema: {
        tags,
        summary: 'List the users, or a page when any list parameter is given (admin)',
        operationId: 'listUsers',
        querystring: ZAdminUserQuery,
        response: { 200: z.union([z.array(ZAdminUser), ZAdminUserPage]), ...errors },
      },
      preValidation,
    },
    async (request) => admin.listUsers(request.query),
  );

  r.patch(
    '/api/admin/users/:id/role',
    {
      schema: {
        tags,
        summary: "Change a user's role (admin)",
        operationId: 'changeUserRole',
        params: ZIdParams,
        body: ZRoleChange,
        response: { 200: ZAdminUser, ...errors },
      },
      preValidation,
    },
    async (request) => admin.changeRole(request.user!, request.params.id, request.body.role),
  );

  // One account's limits (docs/PRODUCT.md#limits): the limit in force of each kind, whether it
  // is the account's own, and how many it holds; a change is audited.
  r.get(
    '/api/admin/users/:id/limits',
    {
      schema: {
        tags,
        summary: "Read a user's limits and how much of each they hold (admin)",
        operationId: 'getUserLimits',
        params: ZIdParams,
        response: { 200: ZUserLimits, ...errors },
      },
      preValidation,
    },
    async (request) => limits.forUser(request.params.id),
  );

  r.put(
    '/api/admin/users/:id/limits',
    {
      schema: {
        tags,
        summary: "Set a user's own limits, or return them to the defaults (admin)",
        operationId: 'setUserLimits',
        params: ZIdParams,
        body: ZUserLimitsChange,
        response: { 200: ZUserLimits, ...errors },
      },
      preValidation,
    },
    async (request) => limits.change(request.user!, request.params.id, request.body),
  );
}
