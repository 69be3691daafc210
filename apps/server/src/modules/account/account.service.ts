import type {
  TEmailChangeInput,
  TPasswordChangeInput,
  TProfileInput,
} from '@portico/shared/auth/account';
import type { TUserRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { accountAudit } from '../audit/account-audit';
import { diffFields, type TAuditService } from '../audit/audit.service';
import type { TAccountSessions, TSessionCaller } from '../sessions/sessions.service';
import type { TUsersService } from '../users/users.service';

export type TAccountService = ReturnType<typeof createAccountService>;

/** One's own profile, e-mail and password; the admin's tools are elsewhere. */
export function createAccountService(deps: {
  users: TUsersService;
  sessions: TAccountSessions;
  audit: TAuditService;
}) {
  async function requirePassword(user: TUserRow, password: string): Promise<void> {
    if (!(await deps.users.checkPassword(user, password))) {
      throw new AppError('wrong_password', 400);
    }
  }

  return {
    async updateProfile(user: TUserRow, input: TProfileInput): Promise<TUserRow> {
      const changes = { firstName: input.firstName || null, lastName: input.lastName || null };
      const diff = diffFields(user, changes, ['firstName', 'lastName']);
      if (diff.length === 0) return user;
      const row = await deps.users.update(user.id, changes);
      await accountAudit(deps.audit, user, 'account.profile', { changes: diff });
      return row;
    },

    /** The sign-in address: changing it asks for the password, like the password itself. */
    async changeEmail(user: TUserRow, input: TEmailChangeInput): Promise<TUserRow> {
      await requirePassword(user, input.currentPassword);
      const email = input.email.toLowerCase();
      if (email === user.email) return user;
      const row = await deps.users.update(user.id, { email });
      await accountAudit(deps.audit, user, 'account.email', {
        changes: [{ field: 'accountEmail', before: user.email, after: row.email }],
      });
      return row;
    },

    /**
     * A new password ends every other session of the account (and their log sockets): whoever
     * knew the old one and signed in with it is out. The caller's own session stays.
     */
    async changePassword(
      caller: TSessionCaller,
      input: TPasswordChangeInput,
    ): Promise<{ endedSessions: number }> {
      await requirePassword(caller.user, input.currentPassword);
      await deps.users.setPassword(caller.user.id, input.newPassword);
      const endedSessions = await deps.sessions.endOthers(caller, { audit: false });
      await accountAudit(deps.audit, caller.user, 'account.password', {
        changes: [{ field: 'sessionsEnded', before: null, after: endedSessions }],
      });
      return { endedSessions };
    },
  };
}
