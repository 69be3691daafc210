import { AUDIT_SECRET_MARK } from '@portico/shared/admin/api';
import type { TAuditAction } from '@portico/shared/admin/audit-actions';
import type { TAuditChange } from '../../db/schema';
import type { TAuditRepository, TNewAuditRow } from './audit.repository';

export type TAuditService = ReturnType<typeof createAuditService>;

export interface TAuditActor {
  id: string;
  username: string;
}

export interface TAuditEntry {
  /** One of the shared list, which the audit page words in both languages. */
  action: TAuditAction;
  targetType: string;
  targetId: string;
  targetOwnerId?: string | null;
  changes?: TAuditChange[];
}

/**
 * Field-by-field differences between two records. Fields named in `secrets` appear only as
 * changed, never with their values.
 */
export function diffFields<T extends Record<string, unknown>>(
  before: T,
  after: Partial<T>,
  fields: readonly (keyof T & string)[],
  secrets: readonly string[] = [],
): TAuditChange[] {
  const changes: TAuditChange[] = [];
  for (const field of fields) {
    if (!(field in after)) continue;
    const a = before[field] ?? null;
    const b = after[field] ?? null;
    if (JSON.stringify(a) === JSON.stringify(b)) continue;
    if (!secrets.includes(field)) changes.push({ field, before: a, after: b });
    // A secret is never recorded, only that it changed, or that it was removed.
    else if (b === null) changes.push({ field, before: AUDIT_SECRET_MARK, after: null });
    else changes.push({ field, before: null, after: AUDIT_SECRET_MARK });
  }
  return changes;
}

/** The row an entry is kept as. A null actor is Portico itself (the command line): "System". */
export function auditRowOf(actor: TAuditActor | null, entry: TAuditEntry): TNewAuditRow {
  return {
    actorId: actor?.id ?? null,
    actorUsername: actor?.username ?? '',
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId,
    targetOwnerId: entry.targetOwnerId ?? null,
    changes: entry.changes ?? [],
  };
}

export function createAuditService(repository: TAuditRepository) {
  return {
    async record(actor: TAuditActor | null, entry: TAuditEntry): Promise<void> {
      await repository.insert(auditRowOf(actor, entry));
    },
  };
}
