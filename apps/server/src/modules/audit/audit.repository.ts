import { and, desc, eq, lt, or, type SQL, sql } from 'drizzle-orm';
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

/** Which rows a page of the log holds: an account's (as actor or owner), a proxy's, older than `before`. */
export interface TAuditPageFilter {
  userId?: string;
  proxyId?: string;
  before?: number;
  limit: number;
}

export function createAuditRepository(db: TDb) {
  return {
    /** Newest first by id (ids grow with every insert; timestamps can tie), `limit` rows. */
    async page(filter: TAuditPageFilter): Promise<TAuditLogRow[]> {
      const conditions: (SQL | undefined)[] = [];
      if (filter.userId) {
        conditions.push(
          or(eq(auditLog.actorId, filter.userId), eq(auditLog.targetOwnerId, filter.userId)),
        );
      }
      if (filter.proxyId) {
        conditions.push(
          and(
            eq(auditLog.targetType, 'proxy_configuration'),
            eq(auditLog.targetId, filter.proxyId),
          ),
        );
      }
      if (filter.before !== undefined) conditions.push(lt(auditLog.id, filter.before));
      return db
        .select()
        .from(auditLog)
        .where(and(...conditions))
        .orderBy(desc(auditLog.id))
        .limit(filter.limit);
    },

    // Nothing reads the row back: no RETURNING, whose row description pg would parse each time.
    async insert(row: TNewAuditRow): Promise<void> {
      await db.insert(auditLog).values(row);
    },
  };
}
