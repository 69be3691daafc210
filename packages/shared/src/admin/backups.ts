import { z } from 'zod';

/** The admin panel's backup card: the schedule (null when PORTICO_BACKUP_DIR is unset) and the last run. */
export const ZBackupStatus = z.object({
  schedule: z
    .object({
      dir: z.string(),
      /** HH:MM, UTC. */
      time: z.string(),
      keep: z.number().int(),
      encrypted: z.boolean(),
    })
    .nullable(),
  last: z
    .object({
      startedAt: z.string(),
      finishedAt: z.string(),
      ok: z.boolean(),
      file: z.string().nullable(),
      bytes: z.number().int().nullable(),
      error: z.string().nullable(),
    })
    .nullable(),
});
export type TBackupStatus = z.infer<typeof ZBackupStatus>;
