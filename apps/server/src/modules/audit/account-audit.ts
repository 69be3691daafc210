import type { TAuditAction } from '@portico/shared/admin/audit-actions';
import type { TAuditChange } from '../../db/schema';
import type { TAuditActor, TAuditService } from './audit.service';

/** Every account action the audit trail names (the shared list's `account.*`). */
export type TAccountAction = Extract<TAuditAction, `account.${string}`>;

/**
 * One row for an account action: the account is the target (and its owner, so the admin's
 * per-user filter finds it). A null actor is the command line.
 */
export async function accountAudit(
  audit: TAuditService,
  actor: TAuditActor | null,
  action: TAccountAction,
  extra: { target?: { id: string }; changes?: TAuditChange[] } = {},
): Promise<void> {
  const target = extra.target ?? actor;
  if (!target) throw new Error('an account action needs a target');
  await audit.record(actor && { id: actor.id, username: actor.username }, {
    action,
    targetType: 'user',
    targetId: target.id,
    targetOwnerId: target.id,
    changes: extra.changes ?? [],
  });
}
