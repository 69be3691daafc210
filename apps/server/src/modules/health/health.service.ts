import type { TDatabase } from '../../db/client';
import { migrationsApplied } from '../../db/migrate';

export type THealthService = ReturnType<typeof createHealthService>;

export function createHealthService(database: TDatabase) {
  return {
    /** Ready when the database answers and every migration is applied; else why not. */
    async readiness(): Promise<
      | { status: 'ready' }
      | { status: 'database_unreachable'; error: unknown }
      | { status: 'migrations_pending' }
    > {
      try {
        await database.ping();
      } catch (error) {
        return { status: 'database_unreachable', error };
      }
      if (!(await migrationsApplied(database))) return { status: 'migrations_pending' };
      return { status: 'ready' };
    },
  };
}
