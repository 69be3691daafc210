import { AUDIT_SECRET_MARK } from '@portico/shared/admin/api';
import { DEFAULT_LANGUAGE, type TLanguage } from '@portico/shared/api-error';
import type {
  TNotificationSettings,
  TNotificationSettingsInput,
  TNotificationTestResult,
} from '@portico/shared/notifications/schemas';
import type { TAuditChange, TNotificationSettingsRow, TUserRow } from '../../db/schema';
import type { TTransaction } from '../../db/transaction';
import { KeyedAppError } from '../../lib/app-error';
import {
  SecretDecryptError,
  SecretKeyError,
  secretAad,
  type TSecretBoxLoader,
} from '../../lib/secrets';
import { accountAudit } from '../audit/account-audit';
import { proxyErrors } from '../proxies/proxy-errors';
import type { TUsersService } from '../users/users.service';
import { type TAlertMessage, testMessage, webhookBody } from './alert-message';
import { addressRefusal, mailResult, webhookResult } from './delivery';
import {
  createEmailVerification,
  emailVerified,
  pendingEmailCode,
  type TNotificationWrites,
} from './email-verification';
import type { TMailer, TMailOutcome } from './mailer';
import type { TNotificationsRepository } from './notifications.repository';
import { postWebhook, type TWebhookOutcome } from './webhook';
import { allowedAddresses, WebhookAddressError } from './webhook-address';

export type TNotificationsService = ReturnType<typeof createNotificationsService>;

export function recipientLanguage(user: Pick<TUserRow, 'language'>): TLanguage {
  return user.language === 'en' || user.language === 'es' ? user.language : DEFAULT_LANGUAGE;
}

/** The stored webhook as the screen shows it: its origin and the last characters of the URL. */
export function webhookHint(url: string): { origin: string; hint: string } {
  const parsed = new URL(url);
  const rest = url.slice(parsed.origin.length);
  return { origin: parsed.origin, hint: rest.length > 8 ? `…${rest.slice(-4)}` : rest };
}

const webhookAad = (userId: string) => secretAad('user', userId, 'webhookUrl');

/**
 * Where a user's certificate alerts go (the Notifications section of the settings page) and the
 * delivery itself: e-mail through the operator's SMTP server, a JSON POST to the user's webhook.
 * The webhook URL is stored encrypted (it is the receiver's secret) and called only after its
 * host passed the address policy (webhook-address.ts), at save and at each call.
 */
export function createNotificationsService(deps: {
  repository: TNotificationsRepository;
  transaction: TTransaction<TNotificationWrites>;
  users: TUsersService;
  /** The key file's box (lib/secrets.ts), shared with every reader of stored secrets. */
  secretBox: TSecretBoxLoader;
  /** PORTICO_WEBHOOK_ALLOW_PRIVATE: webhooks may point at private and loopback addresses. */
  webhookAllowPrivate: boolean;
  /** Alert e-mails go out through it; none without PORTICO_SMTP_URL (services.ts). */
  mailer: TMailer | undefined;
  /** How long a webhook call may take (webhook.ts WEBHOOK_DEADLINE_MS unless tests say). */
  webhookDeadlineMs?: number;
  log: { warn(obj: unknown, msg: string): void };
}) {
  const { mailer } = deps;
  const verification = createEmailVerification(deps);
  const openBox = deps.secretBox;

  function view(user: TUserRow, row: TNotificationSettingsRow | undefined): TNotificationSettings {
    return {
      email: user.email,
      smtpConfigured: mailer !== undefined,
      emailEnabled: row?.emailEnabled ?? true,
      emailVerified: emailVerified(user, row),
      emailCode: pendingEmailCode(user, row, new Date()),
      webhook:
        row?.webhookUrlEnc && row.webhookOrigin
          ? { origin: row.webhookOrigin, hint: row.webhookHint ?? '' }
          : null,
    };
  }

  /** The stored URL, or undefined when there is none or it no longer decrypts (logged). */
  function storedWebhook(userId: string, row: TNotificationSettingsRow | undefined) {
    if (!row?.webhookUrlEnc) return undefined;
    try {
      return openBox().decrypt(row.webhookUrlEnc, webhookAad(userId));
    } catch (error) {
      if (error instanceof SecretDecryptError || error instanceof SecretKeyError) {
        openBox.forget();
        deps.log.warn({ err: error, userId }, 'stored webhook URL cannot be read');
        return undefined;
      }
      throw error;
    }
  }

  async function checkHost(url: string): Promise<void> {
    try {
      await allowedAddresses(new URL(url).hostname, deps.webhookAllowPrivate);
    } catch (error) {
      if (!(error instanceof WebhookAddressError)) throw error;
      const refusal = addressRefusal(error);
      throw new KeyedAppError(refusal.code, 400, refusal.key, refusal.params);
    }
  }

  /** The far side's words (a status, a socket error code, the mail server's reply): log only. */
  function logFailure(userId: string, outcome: TMailOutcome | TWebhookOutcome) {
    if ('sent' in outcome ? outcome.sent : outcome.delivered) return;
    const channel = 'sent' in outcome ? 'email' : 'webhook';
    deps.log.warn({ userId, channel, outcome }, 'alert not delivered');
  }

  /**
   * Sends one message to a user's channels: e-mail only to a verified address. Never throws,
   * reports each channel's outcome. `test`: the user is waiting for the answer, so a webhook that
   * cannot be reached is reported at the deadline whatever the reason (webhook.ts).
   */
  async function deliver(
    user: TUserRow,
    message: TAlertMessage,
    details: Record<string, string | number | null>,
    options: { test?: boolean } = {},
  ): Promise<TNotificationTestResult> {
    const lang = recipientLanguage(user);
    const row = await deps.repository.find(user.id);
    const settings = view(user, row);
    const url = storedWebhook(user.id, row);
    const [email, webhook] = await Promise.all([
      mailer && settings.emailEnabled && settings.emailVerified
        ? mailer.send({ to: user.email, ...message }).then((outcome) => {
            logFailure(user.id, outcome);
            return mailResult(lang, outcome);
          })
        : Promise.resolve(null),
      url
        ? postWebhook(url, webhookBody(message, details), {
            allowPrivate: deps.webhookAllowPrivate,
            deadlineMs: deps.webhookDeadlineMs,
            unreachableAtDeadline: options.test,
          }).then((outcome) => {
            logFailure(user.id, outcome);
            return webhookResult(lang, outcome);
          })
        : Promise.resolve(null),
    ]);
    return { email, webhook };
  }

  return {
    deliver,

    async settings(user: TUserRow): Promise<TNotificationSettings> {
      return view(user, await deps.repository.find(user.id));
    },

    async save(user: TUserRow, input: TNotificationSettingsInput): Promise<TNotificationSettings> {
      const before = await deps.repository.find(user.id);
      let webhook: { enc: string; origin: string; hint: string } | null | undefined;
      if (typeof input.webhookUrl === 'string') {
        await checkHost(input.webhookUrl);
        let enc: string;
        try {
          enc = openBox().encrypt(input.webhookUrl, webhookAad(user.id));
        } catch (error) {
          openBox.forget();
          if (error instanceof SecretKeyError) throw proxyErrors.secretKeyUnreadable();
          throw error;
        }
        webhook = { enc, ...webhookHint(input.webhookUrl) };
      } else {
        webhook = input.webhookUrl;
      }
      const changes: TAuditChange[] = [];
      const emailBefore = before?.emailEnabled ?? true;
      if (emailBefore !== input.emailEnabled) {
        changes.push({ field: 'emailAlerts', before: emailBefore, after: input.emailEnabled });
      }
      if (webhook !== undefined && (webhook !== null || before?.webhookUrlEnc)) {
        changes.push({
          field: 'webhookUrl',
          before: null,
          after: webhook === null ? null : AUDIT_SECRET_MARK,
        });
      }
      const row = await deps.transaction(async (tx) => {
        if (webhook && !before?.webhookUrlEnc) await tx.limits.assertRoom(user.id, 'webhooks');
        const saved = await tx.repository.save(user.id, {
          emailEnabled: input.emailEnabled,
          webhook,
        });
        if (changes.length > 0) {
          await accountAudit(tx.audit, user, 'account.notifications', { changes });
        }
        return saved;
      });
      return view(user, row);
    },

    /** A test message to every channel the user has, with what each did. */
    async sendTest(user: TUserRow, lang: TLanguage): Promise<TNotificationTestResult> {
      const message = testMessage(lang, user.username);
      return deliver({ ...user, language: lang }, message, { event: 'test' }, { test: true });
    },

    /** A code to the account's address, in the caller's language (email-verification.ts). */
    async sendEmailCode(user: TUserRow, lang: TLanguage): Promise<TNotificationSettings> {
      return view(user, await verification.sendCode(user, lang));
    },

    async verifyEmail(user: TUserRow, code: string): Promise<TNotificationSettings> {
      return view(user, await verification.verify(user, code));
    },

    async setLanguage(user: TUserRow, language: TLanguage): Promise<void> {
      if (user.language !== language) await deps.users.update(user.id, { language });
    },
  };
}
