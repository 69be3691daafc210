import type { TDb } from '../../db/client';
import { auditLog, type TAuditChange } from '../../db/schema';

export type TAuditRepository = ReturnType<typeof createAuditRepository>;

export interface TNewAuditRow {
  actorId: string | null;
  actorUsername: string;
  action: string;
  targetType: string;
  targetId: string;
  targetOwnerId: string | null;
  changes: TAuditChange[];
}

export function createAuditRepository(db: TDb) {
  return {
    // Nothing reads the row back: no RETURNING, whose row description pg would parse each time.
    async insert(row: TNewAuditRow): Promise<void> {
      await db.insert(auditLog).values(row);
    },
  };
}
