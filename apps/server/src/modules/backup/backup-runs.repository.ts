import { desc } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { backupRuns, type TBackupRunRow } from '../../db/schema';

export type TBackupRunsRepository = ReturnType<typeof createBackupRunsRepository>;

export function createBackupRunsRepository(db: TDb) {
  return {
    async record(run: Omit<TBackupRunRow, 'id'>): Promise<void> {
      await db.insert(backupRuns).values(run);
    },
    /** The newest run (started_at is indexed). */
    async last(): Promise<TBackupRunRow | null> {
      const [row] = await db.select().from(backupRuns).orderBy(desc(backupRuns.startedAt)).limit(1);
      return row ?? null;
    },
  };
}
