import { type TBackupStatus, ZBackupStatus } from '@portico/shared/admin/backups';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../lib/error-responses';

export interface TBackupRoutesOptions {
  backups: { status(): Promise<TBackupStatus> };
}

export async function backupRoutes(app: FastifyInstance, options: TBackupRoutesOptions) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/admin/backups/status',
    {
      schema: {
        tags: ['admin'],
        summary: 'See the backup schedule and the last scheduled backup (admin)',
        operationId: 'getBackupStatus',
        response: { 200: ZBackupStatus, ...errorResponses(401, 403) },
      },
      preValidation: app.requireAdmin,
    },
    async () => options.backups.status(),
  );
}
