import { Readable } from 'node:stream';
import {
  IMPORT_BODY_MAX,
  ZExportDocument,
  ZExportInput,
  ZImportInput,
  ZImportReport,
} from '@portico/shared/transfer/schemas';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ACCOUNT_ERRORS, ACCOUNT_TAGS } from '../../lib/account-routes';
import type { TTransferService } from './transfer.service';

/**
 * Export and import of the caller's saved servers and proxies (docs/PRODUCT.md#export-and-import).
 * Both are POSTs: an export may carry a passphrase, and it writes an audit row.
 */
export async function transferRoutes(
  app: FastifyInstance,
  options: { transfer: TTransferService },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { transfer } = options;
  const tags = ACCOUNT_TAGS;

  r.post(
    '/api/account/export',
    {
      schema: {
        tags,
        summary: 'Download your saved servers and proxies as JSON (secrets only with a passphrase)',
        operationId: 'exportAccountData',
        body: ZExportInput,
        response: { 200: ZExportDocument, ...ACCOUNT_ERRORS },
      },
      preValidation: app.requireUser,
    },
    async (request, reply) => {
      const lines = await transfer.exportFor(request.user!, request.body);
      const day = new Date().toISOString().slice(0, 10);
      // Written as read: a stream skips the serializer, and 10,000 proxies never sit in memory.
      return reply
        .type('application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="portico-export-${day}.json"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(lines) as never);
    },
  );

  r.post(
    '/api/account/import',
    {
      schema: {
        tags,
        summary: 'Add the saved servers and proxies of an export to your account, all or none',
        operationId: 'importAccountData',
        body: ZImportInput,
        response: { 200: ZImportReport, ...ACCOUNT_ERRORS },
      },
      bodyLimit: IMPORT_BODY_MAX,
      preValidation: app.requireUser,
    },
    async (request) => transfer.importFor(request.user!, request.body),
  );
}
