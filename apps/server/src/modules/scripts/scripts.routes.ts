import fastifyMultipart from '@fastify/multipart';
import { ZUploadScriptResponse, ZUuid } from '@portico/shared/proxy/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../lib/error-responses';
import { keepPendingScript } from './pending-script';
import { MAX_SCRIPT_BYTES } from './script-file';
import { refuseScript, type TScriptsService } from './scripts.service';

export interface TScriptsRoutesOptions {
  scripts: TScriptsService;
}

const ZUploadQuery = z.object({ configurationId: ZUuid.optional() });

function isFileTooLarge(error: unknown): boolean {
  return (error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE';
}

/** POST /api/upload-script: multipart field `script` (.sh, text, ≤ 64 KiB; docs/PRODUCT.md#custom-deployment-script). */
export async function scriptsRoutes(app: FastifyInstance, options: TScriptsRoutesOptions) {
  // Multipart is accepted by this route only (the plugin is encapsulated here). One file, a few
  // small fields at most; anything beyond answers 413 through the error handler.
  // preservePath: the name is checked as sent. Busboy otherwise keeps only the last path part,
  // so `../../etc/x.sh` was accepted as `x.sh`; browsers never send a path, so one is refused.
  await app.register(fastifyMultipart, {
    limits: { fileSize: MAX_SCRIPT_BYTES, files: 1, fields: 4, parts: 5, fieldSize: 1024 },
    preservePath: true,
  });
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/upload-script',
    {
      schema: {
        tags: ['scripts'],
        summary: 'Upload a custom deployment script',
        operationId: 'uploadScript',
        consumes: ['multipart/form-data'],
        querystring: ZUploadQuery,
        response: {
          200: ZUploadScriptResponse,
          ...errorResponses(400, 401, 404, 413, 429),
        },
      },
      preValidation: app.requireUser,
      preHandler: app.routeLimit('upload-script', [{ max: 30, windowMs: 60_000, by: 'user' }]),
    },
    async (request) => {
      if (!request.isMultipart()) throw refuseScript({ key: 'checks.script.missing' });
      const file = await request.file();
      if (file?.fieldname !== 'script') throw refuseScript({ key: 'checks.script.missing' });
      const { configurationId } = request.query;
      return options.scripts.upload(
        request.user!.id,
        {
          filename: file.filename,
          read: () =>
            file.toBuffer().catch((error: unknown) => {
              if (isFileTooLarge(error)) return 'too_large' as const;
              throw error;
            }),
          skip: () => file.file.resume(),
        },
        configurationId
          ? { configurationId }
          : { keepPending: (script) => keepPendingScript(request, script) },
      );
    },
  );
}
