import {
  ZApplyPlanInput,
  ZConvertPlan,
  ZConvertResult,
  ZIdParams,
} from '@portico/shared/proxy/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../lib/error-responses';
import type { createProxyConversion } from './proxy-conversion';

/** Conversions (plans and applies) a user may ask for in a minute: each opens an SSH session. */
export const CONVERSIONS_PER_MINUTE = 10;

const tags = ['proxies'];

export async function proxyConversionRoutes(
  app: FastifyInstance,
  options: { conversion: ReturnType<typeof createProxyConversion> },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { conversion } = options;
  const preValidation = app.requireUser;
  const preHandler = app.routeLimit('convert-site', [
    { max: CONVERSIONS_PER_MINUTE, windowMs: 60_000, by: 'user' },
  ]);

  r.post(
    '/api/proxy-configurations/:id/convert/plan',
    {
      schema: {
        tags,
        summary: "Show what converting an adopted site to Portico's configuration would change",
        description:
          'Reads the adopted file and every file Portico would write over SSH (read-only) and ' +
          'answers each with a unified diff: the hand-written file removed, Portico’s written, ' +
          'the certificate kept. Nothing is written. Refused (409) when the file changed since ' +
          'adoption. Pass `fingerprint` to convert.',
        operationId: 'planProxyConversion',
        params: ZIdParams,
        response: { 200: ZConvertPlan, ...errorResponses(400, 401, 403, 404, 409, 429, 500, 502) },
      },
      preValidation,
      preHandler,
    },
    async (request) => conversion.plan(request.user!, request.params.id, request.language),
  );

  r.post(
    '/api/proxy-configurations/:id/convert',
    {
      schema: {
        tags,
        summary: "Convert an adopted site to Portico's configuration, as planned",
        description:
          'Reads the files again (409 `server_changed` and nothing written when they differ from ' +
          'the plan or from adoption), asks the site from outside, swaps the hand-written file ' +
          'for Portico’s behind `nginx -t`, asks the site again, and puts everything back when ' +
          'it no longer answers the same (status, redirect, body, certificate). The proxy is then ' +
          'an ordinary Portico proxy.',
        operationId: 'convertAdoptedProxy',
        params: ZIdParams,
        body: ZApplyPlanInput,
        response: {
          200: ZConvertResult,
          ...errorResponses(400, 401, 403, 404, 409, 429, 500, 502),
        },
      },
      preValidation,
      preHandler,
    },
    async (request) =>
      conversion.convert(
        request.user!,
        request.params.id,
        request.body.fingerprint,
        request.language,
      ),
  );
}
