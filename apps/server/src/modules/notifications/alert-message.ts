import type { TLanguage } from '@portico/shared/api-error';
import type { TKeyText } from '@portico/shared/certificates/schemas';
import { daysLeft } from '@portico/shared/certificates/state';
import { renderText, type TText } from '@portico/shared/i18n/text';
import { translate } from '@portico/shared/i18n/translate';

/** What an alert is about. */
export type TAlertEvent =
  | { kind: 'warning' | 'danger'; notAfter: string }
  | { kind: 'checkFailed'; reason: TKeyText }
  | { kind: 'notReloaded'; servedNotAfter: string; renewedNotBefore: string }
  | { kind: 'renewalFailed'; reason: TText };

export type TAlertKind = TAlertEvent['kind'];

/** Alerts an administrator also receives (the owner always does). */
export function goesToAdmins(event: TAlertEvent): boolean {
  return event.kind === 'danger' || event.kind === 'checkFailed';
}

export interface TAlertMessage {
  subject: string;
  text: string;
}

/** A moment in words any reader parses: 2026-05-01 14:30 UTC. */
function utc(iso: string): string {
  return `${new Date(iso).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** "in 9 days", "today", "3 days ago" in the reader's language. */
export function whenText(lang: TLanguage, notAfter: string, now: Date): string {
  const days = daysLeft(notAfter, now);
  if (days > 1) return translate(lang, 'alerts.when.days', { count: days });
  if (days === 1) return translate(lang, 'alerts.when.day');
  if (days === 0 && new Date(notAfter) > now) return translate(lang, 'alerts.when.today');
  const ago = Math.max(1, -days);
  return ago === 1
    ? translate(lang, 'alerts.when.agoDay')
    : translate(lang, 'alerts.when.agoDays', { count: ago });
}

export function keyText(lang: TLanguage, text: TKeyText): string {
  return translate(lang, text.key, text.params ?? {});
}

function compose(lang: TLanguage, key: string, params: Record<string, string | number>) {
  return {
    subject: translate(lang, `alerts.${key}.subject`, params),
    body: translate(lang, `alerts.${key}.body`, params),
  };
}

/**
 * The alert in the recipient's language. `owner` is set when the recipient is an administrator
 * told about someone else's proxy.
 */
export function alertMessage(
  lang: TLanguage,
  event: TAlertEvent,
  context: { domain: string; owner?: string; now: Date },
): TAlertMessage {
  const { domain, now } = context;
  let parts: { subject: string; body: string };
  switch (event.kind) {
    case 'warning':
    case 'danger': {
      const expired = new Date(event.notAfter) <= now;
      const params = {
        domain,
        date: utc(event.notAfter),
        when: whenText(lang, event.notAfter, now),
      };
      parts = compose(lang, expired ? 'expired' : event.kind, params);
      break;
    }
    case 'checkFailed':
      parts = compose(lang, 'checkFailed', { domain, reason: keyText(lang, event.reason) });
      break;
    case 'notReloaded':
      parts = compose(lang, 'notReloaded', {
        domain,
        date: utc(event.servedNotAfter),
        renewed: utc(event.renewedNotBefore),
      });
      break;
    case 'renewalFailed':
      parts = compose(lang, 'renewalFailed', { domain, reason: renderText(lang, event.reason) });
      break;
  }
  const lines = [parts.body];
  if (context.owner) lines.push(translate(lang, 'alerts.admin', { owner: context.owner }));
  lines.push(translate(lang, 'alerts.signature'));
  return { subject: parts.subject, text: lines.join('\n\n') };
}

export function testMessage(lang: TLanguage, user: string): TAlertMessage {
  const parts = compose(lang, 'test', { user });
  return {
    subject: parts.subject,
    text: [parts.body, translate(lang, 'alerts.signature')].join('\n\n'),
  };
}

/** Discord refuses `content` over 2000 characters; Slack's `text` takes more. */
const CHAT_MAX = 1900;

/** The webhook body: `text` for Slack (and Mattermost, Rocket.Chat), `content` for Discord. */
export function webhookBody<T extends Record<string, string | number | null>>(
  message: TAlertMessage,
  details: T,
) {
  const full = `${message.subject}\n\n${message.text}`;
  const chat = full.length > CHAT_MAX ? `${full.slice(0, CHAT_MAX - 1)}…` : full;
  return { text: chat, content: chat, subject: message.subject, ...details };
}
