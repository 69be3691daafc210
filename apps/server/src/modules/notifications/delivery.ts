import type { TLanguage } from '@portico/shared/api-error';
import { translate } from '@portico/shared/i18n/translate';
import type { TDeliveryResult } from '@portico/shared/notifications/schemas';
import type { TMailOutcome } from './mailer';
import type { TWebhookOutcome } from './webhook';
import type { WebhookAddressError } from './webhook-address';

/** The catalog key and values that say why a webhook host was refused. */
export function addressRefusal(error: WebhookAddressError): {
  code: string;
  key: string;
  params: Record<string, string>;
} {
  const params = { host: error.host, address: error.address ?? error.host };
  if (error.reason === 'unresolved') {
    return { code: 'webhook_unresolved', key: 'errors.webhookUnresolved', params };
  }
  // A URL that names an address itself: the sentence says it once, not "x: it points at x".
  const literal = params.address === params.host ? 'Address' : '';
  return error.reason === 'forbidden'
    ? { code: 'webhook_forbidden', key: `errors.webhookForbidden${literal}`, params }
    : { code: 'webhook_private', key: `errors.webhookPrivate${literal}`, params };
}

/** "4xx", "5xx": the class of a status, all a webhook's answer is ever quoted by. */
export function statusClass(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}

/** What a webhook call did, in the reader's language; never a word the far side wrote. */
export function webhookResult(lang: TLanguage, outcome: TWebhookOutcome): TDeliveryResult {
  if (outcome.delivered) return { delivered: true, error: null };
  const say = (key: string, params: Record<string, string | number> = {}) =>
    ({ delivered: false, error: translate(lang, key, params) }) as const;
  switch (outcome.reason) {
    case 'address': {
      const refusal = addressRefusal(outcome.error);
      return say(refusal.key, refusal.params);
    }
    case 'redirect':
      return say('notifications.delivery.redirect');
    case 'status':
      return say('notifications.delivery.status', { status: statusClass(outcome.status) });
    case 'unreachable':
      return say('notifications.delivery.unreachable');
  }
}

/** The mail server's own words go to the log only: they may name the operator's network. */
export function mailResult(lang: TLanguage, outcome: TMailOutcome): TDeliveryResult {
  if (outcome.sent) return { delivered: true, error: null };
  return { delivered: false, error: translate(lang, 'notifications.delivery.mail') };
}
