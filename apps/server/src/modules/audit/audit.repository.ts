import { type SQL, sql } from 'drizzle-orm';
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

/**
 * `insert into audit_log … select … from <gate>` for a prepared statement: the row's values are
 * its placeholders (`auditPlaceholdersOf` fills them), written once for each row of `gate` (a
 * WITH query of the same statement), so with the change it records or not at all.
 */
export function auditInsertFrom(gate: string): SQL {
  const c = auditLog;
  const columns = [
    c.actorId,
    c.actorUsername,
    c.action,
    c.targetType,
    c.targetId,
    c.targetOwnerId,
    c.changes,
  ].map((column) => sql.identifier(column.name));
  const p = (name: keyof TNewAuditRow) => sql.placeholder(`audit_${name}`);
  return sql`insert into ${auditLog} (${sql.join(columns, sql`, `)}) select ${p('actorId')}::uuid, ${p('actorUsername')}::text, ${p('action')}::text, ${p('targetType')}::text, ${p('targetId')}::text, ${p('targetOwnerId')}::uuid, ${p('changes')}::jsonb from ${sql.identifier(gate)}`;
}

/** The values of `auditInsertFrom`'s placeholders. */
export function auditPlaceholdersOf(row: TNewAuditRow): Record<string, unknown> {
  return {
    audit_actorId: row.actorId,
    audit_actorUsername: row.actorUsername,
    audit_action: row.action,
    audit_targetType: row.targetType,
    audit_targetId: row.targetId,
    audit_targetOwnerId: row.targetOwnerId,
    audit_changes: JSON.stringify(row.changes),
  };
}

export function createAuditRepository(db: TDb) {
  return {
    // Nothing reads the row back: no RETURNING, whose row description pg would parse each time.
    async insert(row: TNewAuditRow): Promise<void> {
      await db.insert(auditLog).values(row);
    },
  };
}
