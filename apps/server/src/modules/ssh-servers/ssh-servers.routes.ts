import { ZIdParams } from '@portico/shared/proxy/api';
import {
  ZDeleteServerWithSitesInput,
  ZDeleteServerWithSitesReport,
  ZLatestServerRun,
  ZServerRun,
  ZServerRunParams,
  ZServerRunQuery,
  ZSshServer,
  ZSshServerCheck,
  ZSshServerInput,
  ZSshServerList,
  ZSshServerListQuery,
  ZSshServerPage,
  ZSshServerUpdate,
} from '@portico/shared/ssh-servers/schemas';
import {
  ZAdoptSitesAnswer,
  ZAdoptSitesInput,
  ZSiteScan,
} from '@portico/shared/ssh-servers/site-scan';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../lib/error-responses';
import type { TServerActionsService } from './server-actions.service';
import type { TServerCheckService } from './server-check.service';
import type { TServerRunsService } from './server-runs.service';
import type { TSiteScanService } from './site-scan.service';
import type { TSshServersService } from './ssh-servers.service';

export interface TSshServersRoutesOptions {
  sshServers: TSshServersService;
  serverChecks: TServerCheckService;
  serverActions: TServerActionsService;
  serverRuns: TServerRunsService;
  siteScans: TSiteScanService;
}

const tags = ['ssh-servers'];
const errors = errorResponses(400, 401, 403, 404, 409, 500);

/** Saved SSH servers (docs/PRODUCT.md#ssh-servers): secrets go in, never come out. */
export async function sshServersRoutes(app: FastifyInstance, options: TSshServersRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { sshServers, serverChecks, serverActions, serverRuns, siteScans } = options;
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

  r.post(
    '/api/ssh-servers/:id/check',
    {
      schema: {
        tags,
        summary: 'Log in to a saved SSH server and read its facts (read-only, one round trip)',
        operationId: 'checkSshServer',
        params: ZIdParams,
        response: { 200: ZSshServerCheck, ...errorResponses(400, 401, 403, 404, 409, 500, 502) },
      },
      preValidation: app.requireUser,
    },
    async (request) => serverChecks.check(request.user!, request.params.id),
  );

  r.post(
    '/api/ssh-servers/:id/scan',
    {
      schema: {
        tags,
        summary:
          'List and classify the nginx sites and certificates of a saved SSH server (read-only)',
        operationId: 'scanSshServerSites',
        params: ZIdParams,
        response: { 200: ZSiteScan, ...errorResponses(400, 401, 403, 404, 409, 500, 502) },
      },
      preValidation: app.requireUser,
    },
    async (request) => siteScans.scan(request.user!, request.params.id),
  );

  r.post(
    '/api/ssh-servers/:id/adopt',
    {
      schema: {
        tags,
        summary:
          'Record hand-written proxy sites of a saved SSH server as they are (writes nothing there)',
        operationId: 'adoptSshServerSites',
        params: ZIdParams,
        body: ZAdoptSitesInput,
        response: {
          200: ZAdoptSitesAnswer,
          ...errorResponses(400, 401, 403, 404, 409, 500, 502),
        },
      },
      preValidation: app.requireUser,
    },
    async (request) => {
      const body = request.body;
      const names = 'serverName' in body ? [body.serverName] : body.serverNames;
      return siteScans.adopt(request.user!, request.params.id, names);
    },
  );

  r.post(
    '/api/ssh-servers/:id/forget-host-key',
    {
      schema: {
        tags,
        summary: 'Forget the pinned host key of a saved SSH server; the next contact pins again',
        operationId: 'forgetSshServerHostKey',
        params: ZIdParams,
        response: { 200: ZSshServer, ...errorResponses(400, 401, 403, 404) },
      },
      preValidation: app.requireUser,
    },
    async (request) => serverChecks.forgetHostKey(request.user!, request.params.id),
  );

  const runStarts = [
    {
      action: 'redeploy-all',
      kind: 'redeploy',
      summary:
        'Start redeploying every proxy on a saved SSH server in the background, one deployment and log each',
      operationId: 'redeployAllOnSshServer',
    },
    {
      action: 'check-certificates',
      kind: 'check-certificates',
      summary:
        'Start checking the certificate of every proxy on a saved SSH server in the background',
      operationId: 'checkCertificatesOnSshServer',
    },
  ] as const;
  for (const { action, kind, summary, operationId } of runStarts) {
    r.post(
      `/api/ssh-servers/:id/${action}`,
      {
        schema: {
          tags,
          summary,
          operationId,
          params: ZIdParams,
          response: { 202: ZServerRun, ...errorResponses(400, 401, 403, 404, 409) },
        },
        preValidation: app.requireUser,
      },
      async (request, reply) =>
        reply
          .code(202)
          .send(await serverRuns.start(request.user!, request.params.id, kind, request.language)),
    );
  }

  r.get(
    '/api/ssh-servers/:id/runs/latest',
    {
      schema: {
        tags,
        summary: 'Read the latest background run of a saved SSH server (null before its first)',
        operationId: 'getLatestSshServerRun',
        params: ZIdParams,
        response: { 200: ZLatestServerRun, ...errorResponses(400, 401, 404) },
      },
      preValidation: app.requireUser,
    },
    async (request) => serverRuns.latest(request.user!, request.params.id),
  );

  r.get(
    '/api/ssh-servers/:id/runs/:runId',
    {
      schema: {
        tags,
        summary:
          'Read a background run of a saved SSH server: its state, counts and a page of its per-proxy results',
        operationId: 'getSshServerRun',
        params: ZServerRunParams,
        querystring: ZServerRunQuery,
        response: { 200: ZServerRun, ...errorResponses(400, 401, 404) },
      },
      preValidation: app.requireUser,
    },
    async (request) =>
      serverRuns.read(request.user!, request.params.id, request.params.runId, request.query.after),
  );

  r.post(
    '/api/ssh-servers/:id/delete-with-sites',
    {
      schema: {
        tags,
        summary: 'Delete every proxy on a saved SSH server with its site, then the server',
        operationId: 'deleteSshServerWithSites',
        params: ZIdParams,
        body: ZDeleteServerWithSitesInput,
        response: { 200: ZDeleteServerWithSitesReport, ...errors },
      },
      preValidation: app.requireUser,
    },
    async (request) =>
      serverActions.deleteWithSites(request.user!, request.params.id, {
        removeCertificates: request.body.removeCertificates,
        language: request.language,
      }),
  );
}
