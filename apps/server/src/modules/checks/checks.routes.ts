import { renderText, type TText } from '@portico/shared/i18n/text';
import {
  ZDnsValidationResult,
  ZSshTestResult,
  ZTestSshInput,
  ZValidateDnsInput,
} from '@portico/shared/proxy/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../lib/error-responses';
import type { TDnsService } from './dns.service';
import type { TSshTestService } from './ssh-test.service';

export interface TChecksRoutesOptions {
  dns: TDnsService;
  ssh: TSshTestService;
}

const tags = ['checks'];
const MINUTE = 60_000;

/** A check's failure: its words in the caller's language, and the text a screen re-renders. */
function failure(request: FastifyRequest, text: TText | null) {
  const error = text === null ? null : renderText(request.language, text);
  return { error, text };
}

export async function checksRoutes(app: FastifyInstance, options: TChecksRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { dns, ssh } = options;
  /** The host each SSH test contacts, known before the per-host limit counts it. */
  const testedHost = new WeakMap<FastifyRequest, string>();

  r.post(
    '/api/validate-dns',
    {
      schema: {
        tags,
        summary: 'Check that a domain points at the server',
        operationId: 'validateDns',
        body: ZValidateDnsInput,
        response: { 200: ZDnsValidationResult, ...errorResponses(400, 401, 404, 429) },
      },
      // The wizard checks once and on Retry; 30 a minute leaves room for impatience only.
      preValidation: app.requireUser,
      preHandler: [app.routeLimit('validate-dns', [{ max: 30, windowMs: MINUTE, by: 'user' }])],
    },
    async (request) => {
      const result = await dns.checkFor(request.user!.id, request.body);
      return { ...result, ...failure(request, result.error) };
    },
  );

  r.post(
    '/api/test-ssh',
    {
      schema: {
        tags,
        summary: 'Test the SSH connection to a server',
        operationId: 'testSsh',
        body: ZTestSshInput,
        response: {
          200: ZSshTestResult,
          ...errorResponses(400, 401, 404, 429),
        },
      },
      preValidation: app.requireUser,
      preHandler: [
        async (request) => {
          testedHost.set(request, await ssh.hostOf(request.user!.id, request.body));
        },
        app.routeLimit('test-ssh', [
          { max: 10, windowMs: MINUTE, by: 'user' },
          // Shared by every account: several accounts cannot pool their budgets against one host.
          // The schema takes only the canonical spelling, so one host is one key; a saved
          // server counts under its address, whoever saved it.
          { max: 30, windowMs: 10 * MINUTE, by: (request) => testedHost.get(request) ?? '' },
        ]),
      ],
    },
    async (request) => {
      const result = await ssh.test(request.user!.id, request.body);
      const cause = result.cause
        ? { key: 'checks.ssh.failed', params: { cause: result.cause } }
        : null;
      return {
        connected: result.connected,
        fingerprint: result.fingerprint ?? null,
        ...failure(request, cause),
      };
    },
  );
}
