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

// The audit row's columns in one list, each with its SQL type: the insert below names them and
// its placeholders in the same order, and `auditPlaceholdersOf` fills them from it.
const AUDIT_COLUMNS: [keyof TNewAuditRow, string][] = [
  ['actorId', 'uuid'],
  ['actorUsername', 'text'],
  ['action', 'text'],
  ['targetType', 'text'],
  ['targetId', 'text'],
  ['targetOwnerId', 'uuid'],
  ['changes', 'jsonb'],
];

/**
 * `insert into audit_log … select … from <gate>` for a prepared statement: the row's values are
 * its placeholders (`auditPlaceholdersOf` fills them), written once for each row of `gate` (a
 * WITH query of the same statement), so with the change it records or not at all.
 */
export function auditInsertFrom(gate: string): SQL {
  const columns = AUDIT_COLUMNS.map(([key]) => sql.identifier(auditLog[key].name));
  const values = AUDIT_COLUMNS.map(
    ([key, type]) => sql`${sql.placeholder(`audit_${key}`)}::${sql.raw(type)}`,
  );
  return sql`insert into ${auditLog} (${sql.join(columns, sql`, `)}) select ${sql.join(values, sql`, `)} from ${sql.identifier(gate)}`;
}

/** The values of `auditInsertFrom`'s placeholders. */
export function auditPlaceholdersOf(row: TNewAuditRow): Record<string, unknown> {
  return Object.fromEntries(
    AUDIT_COLUMNS.map(([key]) => [
      `audit_${key}`,
      key === 'changes' ? JSON.stringify(row.changes) : row[key],
    ]),
  );
}

export function createAuditRepository(db: TDb) {
  return {
    // Nothing reads the row back: no RETURNING, whose row description pg would parse each time.
    async insert(row: TNewAuditRow): Promise<void> {
      await db.insert(auditLog).values(row);
    },
  };
}
