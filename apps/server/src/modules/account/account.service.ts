import type {
  TEmailChangeInput,
  TPasswordChanged,
  TPasswordChangeInput,
  TProfileInput,
} from '@portico/shared/auth/account';
import type { TUserRow } from '../../db/schema';
import type { TTransaction } from '../../db/transaction';
import { AppError } from '../../lib/app-error';
import { hashPassword } from '../../lib/passwords';
import { accountAudit } from '../audit/account-audit';
import { diffFields } from '../audit/audit.service';
import {
  endedElsewhereChanges,
  type TAccountSessions,
  type TElsewhereWrites,
  type TSessionCaller,
} from '../sessions/sessions.service';
import type { TUsersService } from '../users/users.service';

export type TAccountService = ReturnType<typeof createAccountService>;

/**
 * What an account change writes: the user row, its audit row and, for a password, sessions and
 * tokens.
 */
export interface TAccountWrites extends TElsewhereWrites {
  users: TUsersService;
}

/** One's own profile, e-mail and password; the admin's tools are elsewhere. */
export function createAccountService(deps: {
  users: TUsersService;
  sessions: TAccountSessions;
  transaction: TTransaction<TAccountWrites>;
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
      return deps.transaction(async (tx) => {
        const row = await tx.users.update(user.id, changes);
        await accountAudit(tx.audit, user, 'account.profile', { changes: diff });
        return row;
      });
    },

    /** The sign-in address: changing it asks for the password, like the password itself. */
    async changeEmail(user: TUserRow, input: TEmailChangeInput): Promise<TUserRow> {
      await requirePassword(user, input.currentPassword);
      const email = input.email.toLowerCase();
      if (email === user.email) return user;
      return deps.transaction(async (tx) => {
        const row = await tx.users.update(user.id, { email });
        await accountAudit(tx.audit, user, 'account.email', {
          changes: [{ field: 'accountEmail', before: user.email, after: row.email }],
        });
        return row;
      });
    },

    /**
     * A new password ends every other session of the account (and their log sockets) and,
     * unless kept, its API tokens: whoever knew the old one and signed in with it, or minted a
     * token, is out. The caller's own session stays. The password, the ended sessions' and
     * tokens' rows and the audit row are one transaction; the sessions' sockets close only once
     * it committed.
     */
    async changePassword(
      caller: TSessionCaller,
      input: TPasswordChangeInput,
    ): Promise<TPasswordChanged> {
      await requirePassword(caller.user, input.currentPassword);
      const passwordHash = await hashPassword(input.newPassword);
      const ended = await deps.transaction(async (tx) => {
        await tx.users.update(caller.user.id, { passwordHash });
        const elsewhere = await deps.sessions.endElsewhere(tx, caller, input.revokeTokens);
        await accountAudit(tx.audit, caller.user, 'account.password', {
          changes: endedElsewhereChanges(elsewhere),
        });
        return elsewhere;
      });
      await deps.sessions.ended(caller, ended.sids);
      return { endedSessions: ended.sids.length, revokedTokens: ended.revokedTokens };
    },
  };
}
