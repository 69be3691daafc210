import type { TNotificationSettings } from '@portico/shared/notifications/schemas';

export type TNowhereReason = 'noSmtp' | 'emailOff' | 'unverified';

/**
 * Why a test would reach no one, from the saved settings, or null when a channel takes it: a
 * webhook, or e-mail that is set up, on and verified (the server sends to nothing else).
 */
export function nowhereReason(settings: TNotificationSettings): TNowhereReason | null {
  if (settings.webhook) return null;
  if (!settings.smtpConfigured) return 'noSmtp';
  if (!settings.emailEnabled) return 'emailOff';
  if (!settings.emailVerified) return 'unverified';
  return null;
}
