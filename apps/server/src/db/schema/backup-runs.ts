import { bigint, boolean, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** One scheduled backup (PORTICO_BACKUP_DIR): when, whether it succeeded, what it wrote. */
export const backupRuns = pgTable(
  'backup_runs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }).notNull(),
    ok: boolean('ok').notNull(),
    file: text('file'),
    bytes: bigint('bytes', { mode: 'number' }),
    /** Why it failed, as the operator's log says it (no secret: paths and error codes). */
    error: text('error'),
  },
  (t) => [index('backup_runs_started_idx').on(t.startedAt)],
);

export type TBackupRunRow = typeof backupRuns.$inferSelect;
