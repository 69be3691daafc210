import { z } from 'zod';

// Shapes of the Notifications section of the settings page (issue 15): certificate alerts by
// e-mail and to a webhook. Messages are catalog keys (packages/shared/src/locales).

export const WEBHOOK_URL_MAX = 2048;

// C0 and C1 control characters, DEL, spaces and the Unicode line separators: a URL carries none.
const NOT_IN_URL = /[\s\p{Cc}\p{Zl}\p{Zp}]/u;

/**
 * Whether `value` is a webhook URL Portico can call: http or https, a host, no user info, no
 * spaces or control characters. Where the host points (loopback, private networks) is judged
 * by the server when it saves and again when it sends (modules/notifications/webhook-address.ts).
 */
export function isWebhookUrl(value: string): boolean {
  if (value.length > WEBHOOK_URL_MAX || NOT_IN_URL.test(value)) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (url.username || url.password) return false;
  return url.hostname !== '';
}

export const ZWebhookUrl = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, 'validation.required')
  .refine(isWebhookUrl, 'validation.webhook.invalid');

/**
 * PUT /api/account/notifications. `webhookUrl`: a new URL, null to remove it, left out to keep
 * the stored one (it is never sent back in full: it holds the receiver's secret).
 */
export const ZNotificationSettingsInput = z.object({
  emailEnabled: z.boolean({ error: 'validation.invalidRequest' }),
  webhookUrl: ZWebhookUrl.nullable().optional(),
});
export type TNotificationSettingsInput = z.infer<typeof ZNotificationSettingsInput>;

/** The form's own shape: an empty field means "no webhook". */
export const ZNotificationSettingsForm = z.object({
  emailEnabled: z.boolean(),
  webhookUrl: z.union([z.literal(''), ZWebhookUrl]),
});
export type TNotificationSettingsForm = z.infer<typeof ZNotificationSettingsForm>;

export const ZNotificationSettings = z.object({
  /** Where e-mails go: the account's address. */
  email: z.string(),
  /** PORTICO_SMTP_URL is set: Portico can send e-mail at all. */
  smtpConfigured: z.boolean(),
  emailEnabled: z.boolean(),
  /** The user entered the code sent to `email`: alerts and tests may go there. */
  emailVerified: z.boolean(),
  /** A code sent to `email` that may still be entered; null when none. */
  emailCode: z.object({ sentTo: z.string(), expiresAt: z.string() }).nullable(),
  /** The stored webhook, shown as its origin and a hint of its path; null when none. */
  webhook: z.object({ origin: z.string(), hint: z.string() }).nullable(),
});
export type TNotificationSettings = z.infer<typeof ZNotificationSettings>;

/** POST /api/account/notifications/email/verify: the six digits sent to the account's address. */
export const ZEmailCodeInput = z.object({
  code: z
    .string({ error: 'validation.emailCode.invalid' })
    .trim()
    .regex(/^\d{6}$/, 'validation.emailCode.invalid'),
});
export type TEmailCodeInput = z.infer<typeof ZEmailCodeInput>;

export const ZDeliveryResult = z.object({
  delivered: z.boolean(),
  /** Why not, in the caller's language. */
  error: z.string().nullable(),
});
export type TDeliveryResult = z.infer<typeof ZDeliveryResult>;

/** POST /api/account/notifications/test: what each channel did with a test message. */
export const ZNotificationTestResult = z.object({
  email: ZDeliveryResult.nullable(),
  webhook: ZDeliveryResult.nullable(),
});
export type TNotificationTestResult = z.infer<typeof ZNotificationTestResult>;

/** PUT /api/account/language: the language alerts are written in (the screen's). */
export const ZLanguageInput = z.object({
  language: z.enum(['en', 'es'], { error: 'validation.invalidRequest' }),
});
