import { randomInt } from 'node:crypto';
import type { TLanguage } from '@portico/shared/api-error';
import { translate } from '@portico/shared/i18n/translate';
import type { TNotificationSettingsRow, TUserRow } from '../../db/schema';
import type { TTransaction } from '../../db/transaction';
import { AppError } from '../../lib/app-error';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import { accountAudit } from '../audit/account-audit';
import type { TAuditService } from '../audit/audit.service';
import type { TLimitGuard } from '../limits/limits.service';
import type { TMailer } from './mailer';
import type { TNotificationsRepository } from './notifications.repository';

/** How long a code may be entered, and how many wrong tries void it. */
export const EMAIL_CODE_TTL_MS = 30 * 60_000;
export const EMAIL_CODE_TRIES = 5;

/** Six digits: enough with five tries per code and three codes per ten minutes (rate limit). */
export function newEmailCode(): string {
  return String(randomInt(1_000_000)).padStart(6, '0');
}

// argon2, bound to the address: six digits under a fast hash would be read back from a copy of
// the database in a moment.
const codeSecret = (address: string, code: string) => `${address}\n${code}`;

/** The address alerts may go to: the account's, once its owner entered the code sent there. */
export function emailVerified(
  user: Pick<TUserRow, 'email'>,
  row: TNotificationSettingsRow | undefined,
): boolean {
  return row?.emailVerifiedAddress === user.email;
}

/** A code that may still be entered for the account's current address. */
export function pendingEmailCode(
  user: Pick<TUserRow, 'email'>,
  row: TNotificationSettingsRow | undefined,
  now: Date,
): { sentTo: string; expiresAt: string } | null {
  if (!row?.emailCodeHash || row.emailCodeAddress !== user.email) return null;
  if (!row.emailCodeExpiresAt || row.emailCodeExpiresAt <= now) return null;
  if (row.emailCodeTries >= EMAIL_CODE_TRIES) return null;
  return { sentTo: row.emailCodeAddress, expiresAt: row.emailCodeExpiresAt.toISOString() };
}

/** What saving the settings writes: the settings row and its audit row, together or not at all. */
export interface TNotificationWrites {
  repository: TNotificationsRepository;
  audit: TAuditService;
  limits: TLimitGuard;
}

/**
 * Proving an address before Portico mails it (issue 35, mail bombing): a code sent there, entered
 * in Settings → Notifications. Until then no alert and no test goes to the address.
 */
export function createEmailVerification(deps: {
  repository: TNotificationsRepository;
  transaction: TTransaction<TNotificationWrites>;
  mailer: TMailer | undefined;
  log: { warn(obj: unknown, msg: string): void };
}) {
  return {
    /** Sends a new code to the account's address; the earlier one is void. */
    async sendCode(user: TUserRow, lang: TLanguage): Promise<TNotificationSettingsRow> {
      if (!deps.mailer) throw new AppError('email_unavailable', 409);
      if (emailVerified(user, await deps.repository.find(user.id))) {
        throw new AppError('email_already_verified', 409);
      }
      const code = newEmailCode();
      const row = await deps.repository.storeEmailCode(user.id, {
        hash: await hashPassword(codeSecret(user.email, code)),
        address: user.email,
        expiresAt: new Date(Date.now() + EMAIL_CODE_TTL_MS),
      });
      const params = {
        code,
        user: user.username,
        email: user.email,
        minutes: EMAIL_CODE_TTL_MS / 60_000,
      };
      const outcome = await deps.mailer.send({
        to: user.email,
        subject: translate(lang, 'alerts.verify.subject', params),
        text: [
          translate(lang, 'alerts.verify.body', params),
          translate(lang, 'alerts.signature'),
        ].join('\n\n'),
      });
      if (!outcome.sent) {
        deps.log.warn({ userId: user.id, reason: outcome.reason }, 'e-mail code not sent');
        throw new AppError('email_code_not_sent', 502);
      }
      return row;
    },

    /** Checks a code for the account's address; each try is counted before it is compared. */
    async verify(user: TUserRow, code: string): Promise<TNotificationSettingsRow> {
      const row = await deps.repository.countEmailCodeTry(user.id);
      const tries = row?.emailCodeTries ?? EMAIL_CODE_TRIES + 1;
      // Counted, so this try is one more than the code allows when the earlier ones used them.
      const usable =
        row?.emailCodeHash &&
        row.emailCodeAddress === user.email &&
        row.emailCodeExpiresAt &&
        row.emailCodeExpiresAt > new Date() &&
        tries <= EMAIL_CODE_TRIES;
      if (!usable) throw new AppError('email_code_expired', 400);
      if (!(await verifyPassword(row.emailCodeHash!, codeSecret(user.email, code)))) {
        throw new AppError('email_code_invalid', 400, { left: EMAIL_CODE_TRIES - tries });
      }
      return deps.transaction(async (tx) => {
        const verified = await tx.repository.markEmailVerified(user.id, user.email);
        await accountAudit(tx.audit, user, 'account.notifications', {
          changes: [{ field: 'alertEmailVerified', before: null, after: user.email }],
        });
        return verified;
      });
    },
  };
}
