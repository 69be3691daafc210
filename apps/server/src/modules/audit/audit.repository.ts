import type { TDb } from '../../db/client';
import { auditLog, type TAuditChange, type TAuditLogRow } from '../../db/schema';

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
    async insert(row: TNewAuditRow): Promise<TAuditLogRow> {
      const rows = await db.insert(auditLog).values(row).returning();
      return rows[0]!;
    },
  };
}
