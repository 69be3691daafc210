import { ZCustomCertificate, ZCustomCertificateInput } from '@portico/shared/certificates/custom';
import { ZDnsChallengeInput, ZDnsChallengeView } from '@portico/shared/certificates/dns-challenge';
import { ZDnsProviderOffers } from '@portico/shared/certificates/dns-providers';
import {
  ZAttentionPage,
  ZAttentionQuery,
  ZAttentionRow,
  ZCertificateStatus,
  ZCertificateSummaries,
  ZCertificateSummariesQuery,
  ZCheckStarted,
} from '@portico/shared/certificates/schemas';
import { ZDeployResponse, ZIdParams } from '@portico/shared/proxy/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../lib/error-responses';
import type { TDeploymentsService } from '../deployments/deployments.service';
import type { TCertificatesService } from './certificates.service';
import type { TDnsChallengeService } from './dns-challenge.service';

const tags = ['certificates'];
const errors = errorResponses(400, 401, 403, 404, 409);

export async function certificatesRoutes(
  app: FastifyInstance,
  options: {
    certificates: TCertificatesService;
    dnsChallenges: TDnsChallengeService;
    deployments: TDeploymentsService;
  },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { certificates, dnsChallenges, deployments } = options;
  const preValidation = app.requireUser;

  r.get(
    '/api/certificates',
    {
      schema: {
        tags,
        summary: 'Summarise the certificates of your proxies',
        operationId: 'listCertificates',
        querystring: ZCertificateSummariesQuery,
        response: { 200: ZCertificateSummaries, ...errors },
      },
      preValidation,
    },
    async (request) =>
      certificates.summaries(
        request.user!,
        request.language,
        request.query.ids?.toLowerCase().split(','),
      ),
  );

  r.get(
    '/api/proxy-configurations/:id/certificate',
    {
      schema: {
        tags,
        summary: "Get a proxy's certificate status",
        operationId: 'getCertificate',
        params: ZIdParams,
        response: { 200: ZCertificateStatus, ...errors },
      },
      preValidation,
    },
    async (request) => certificates.status(request.user!, request.params.id, request.language),
  );

  r.post(
    '/api/proxy-configurations/:id/certificate/check',
    {
      schema: {
        tags,
        summary: "Queue a check of a proxy's certificate",
        operationId: 'checkCertificate',
        params: ZIdParams,
        response: { 202: ZCheckStarted, ...errors },
      },
      preValidation,
    },
    async (request, reply) => {
      await certificates.requestCheck(request.user!, request.params.id);
      return reply.code(202).send({ queued: true as const });
    },
  );

  r.put(
    '/api/proxy-configurations/:id/certificate/custom',
    {
      schema: {
        tags,
        summary: 'Upload your own certificate and private key for a proxy',
        operationId: 'uploadCustomCertificate',
        params: ZIdParams,
        body: ZCustomCertificateInput,
        // 413: a body over the request limit (1 MiB), refused before it is read.
        response: { 200: ZCustomCertificate, ...errorResponses(400, 401, 403, 404, 409, 413) },
      },
      preValidation,
    },
    async (request) => certificates.uploadCustom(request.user!, request.params.id, request.body),
  );

  r.delete(
    '/api/proxy-configurations/:id/certificate/custom',
    {
      schema: {
        tags,
        summary: 'Remove your own certificate from a proxy, back to the certificate authority',
        operationId: 'removeCustomCertificate',
        params: ZIdParams,
        response: { 200: z.object({ success: z.literal(true) }), ...errors },
      },
      preValidation,
    },
    async (request) => {
      await certificates.removeCustom(request.user!, request.params.id);
      return { success: true as const };
    },
  );

  const dnsPath = '/api/proxy-configurations/:id/certificate/dns';
  r.get(
    dnsPath,
    {
      schema: {
        tags,
        summary:
          "Read how a proxy's certificate is obtained by DNS-01 (never the credentials), and which DNS providers its server offers",
        operationId: 'getDnsChallenge',
        params: ZIdParams,
        response: {
          200: z.object({
            dnsChallenge: ZDnsChallengeView.nullable(),
            providers: ZDnsProviderOffers,
          }),
          ...errors,
        },
      },
      preValidation,
    },
    async (request) => dnsChallenges.view(request.user!, request.params.id),
  );

  r.put(
    dnsPath,
    {
      schema: {
        tags,
        summary: "Obtain a proxy's certificate by DNS-01 through a DNS provider (wildcards)",
        operationId: 'setDnsChallenge',
        params: ZIdParams,
        body: ZDnsChallengeInput,
        response: { 200: ZDnsChallengeView, ...errors },
      },
      preValidation,
    },
    async (request) => dnsChallenges.save(request.user!, request.params.id, request.body),
  );

  r.delete(
    dnsPath,
    {
      schema: {
        tags,
        summary: "Forget a proxy's DNS provider credentials, back to HTTP-01",
        operationId: 'removeDnsChallenge',
        params: ZIdParams,
        response: { 200: z.object({ success: z.literal(true) }), ...errors },
      },
      preValidation,
    },
    async (request) => {
      await dnsChallenges.remove(request.user!, request.params.id);
      return { success: true as const };
    },
  );

  // 429: the action's limit is reached (renewal_limited, renewal_test_limited), saying when.
  const actionErrors = errorResponses(400, 401, 403, 404, 409, 429);
  for (const [path, action, operationId, summary] of [
    [
      'renew-test',
      'renew_test',
      'testCertificateRenewal',
      'Start a dry run of the certificate renewal',
    ],
    ['renew', 'renew', 'renewCertificate', "Start renewing a proxy's certificate now"],
  ] as const) {
    r.post(
      `/api/proxy-configurations/:id/certificate/${path}`,
      {
        schema: {
          tags,
          summary,
          operationId,
          params: ZIdParams,
          response: { 202: ZDeployResponse, ...actionErrors },
        },
        preValidation,
      },
      async (request, reply) => {
        const language = request.language;
        const id = await deployments.startCertificateAction(
          request.user!,
          request.params.id,
          action,
          language,
        );
        return reply.code(202).send({ success: true as const, deploymentId: id });
      },
    );
  }

  r.get(
    '/api/admin/certificates',
    {
      schema: {
        tags,
        summary: 'List the certificates that need attention (admin), all or a page',
        operationId: 'listCertificatesNeedingAttention',
        querystring: ZAttentionQuery,
        response: { 200: z.union([z.array(ZAttentionRow), ZAttentionPage]), ...errors },
      },
      preValidation: app.requireAdmin,
    },
    async (request) => certificates.attention(request.query),
  );
}
