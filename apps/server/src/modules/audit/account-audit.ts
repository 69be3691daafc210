import type { TAuditChange } from '../../db/schema';
import type { TAuditActor, TAuditService } from './audit.service';

/** Every account action the audit trail names (the web audit page has words for each). */
export type TAccountAction =
  | 'account.profile'
  | 'account.email'
  | 'account.password'
  | 'account.two_factor_on'
  | 'account.two_factor_off'
  | 'account.two_factor_reset'
  | 'account.recovery_codes_new'
  | 'account.recovery_code_used'
  | 'account.token_create'
  | 'account.token_revoke'
  | 'account.session_end'
  | 'account.sessions_end_others'
  | 'account.notifications';

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
