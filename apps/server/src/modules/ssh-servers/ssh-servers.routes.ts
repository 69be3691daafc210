import { ZIdParams } from '@portico/shared/proxy/api';
import {
  ZSshServer,
  ZSshServerInput,
  ZSshServerList,
  ZSshServerListQuery,
  ZSshServerPage,
  ZSshServerUpdate,
} from '@portico/shared/ssh-servers/schemas';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../lib/error-responses';
import type { TSshServersService } from './ssh-servers.service';

export interface TSshServersRoutesOptions {
  sshServers: TSshServersService;
}

const tags = ['ssh-servers'];
const errors = errorResponses(400, 401, 403, 404, 409, 500);

/** Saved SSH servers (docs/PRODUCT.md#ssh-servers): secrets go in, never come out. */
export async function sshServersRoutes(app: FastifyInstance, options: TSshServersRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { sshServers } = options;

  r.get(
    '/api/ssh-servers',
    {
      schema: {
        tags,
        summary: 'List your saved SSH servers (admins: everyone’s), or a page of them',
        operationId: 'listSshServers',
        querystring: ZSshServerListQuery,
        response: { 200: z.union([ZSshServerList, ZSshServerPage]), ...errorResponses(400, 401) },
      },
      preValidation: app.requireUser,
    },
    async (request) => sshServers.list(request.user!, request.query),
  );

  r.post(
    '/api/ssh-servers',
    {
      schema: {
        tags,
        summary: 'Save an SSH server with a password, a private key or a generated key',
        operationId: 'createSshServer',
        body: ZSshServerInput,
        response: { 201: ZSshServer, ...errors },
      },
      preValidation: app.requireUser,
    },
    async (request, reply) =>
      reply.code(201).send(await sshServers.create(request.user!, request.body)),
  );

  r.get(
    '/api/ssh-servers/:id',
    {
      schema: {
        tags,
        summary: 'Read one saved SSH server',
        operationId: 'getSshServer',
        params: ZIdParams,
        response: { 200: ZSshServer, ...errorResponses(400, 401, 404) },
      },
      preValidation: app.requireUser,
    },
    async (request) => sshServers.get(request.user!, request.params.id),
  );

  r.patch(
    '/api/ssh-servers/:id',
    {
      schema: {
        tags,
        summary: 'Change a saved SSH server',
        operationId: 'updateSshServer',
        params: ZIdParams,
        body: ZSshServerUpdate,
        response: { 200: ZSshServer, ...errors },
      },
      preValidation: app.requireUser,
    },
    async (request) => sshServers.update(request.user!, request.params.id, request.body),
  );

  r.delete(
    '/api/ssh-servers/:id',
    {
      schema: {
        tags,
        summary: 'Delete a saved SSH server no proxy uses',
        operationId: 'deleteSshServer',
        params: ZIdParams,
        response: { 200: z.object({ success: z.literal(true) }), ...errors },
      },
      preValidation: app.requireUser,
    },
    async (request) => {
      await sshServers.remove(request.user!, request.params.id);
      return { success: true as const };
    },
  );
}
