import type { TLanguage } from '@portico/shared/api-error';
import {
  CERTIFICATE_ACTION_LIMITS,
  type TActionHold,
  type TCertificateAction,
} from '@portico/shared/certificates/schemas';
import { renderText } from '@portico/shared/i18n/text';
import { RetryLaterError } from '../../lib/app-error';
import type { TCertificateActionHistory } from './certificate-action-history.repository';

const MINUTE = 60_000;

/** The moment is said to the minute, so it is rounded up: never a time that still refuses. */
const wholeMinuteFrom = (ms: number) => new Date(Math.ceil(ms / MINUTE) * MINUTE);

/**
 * Whether a limit of `action` holds it back for the proxy now, and until when: a limit allows
 * `max` runs in its window, so with `max` in it the next may start once the oldest of them
 * leaves it. Of several limits reached, the one that lets go last is the answer.
 */
export async function actionHold(
  history: Pick<TCertificateActionHistory, 'startedWithin'>,
  proxy: { id: string; userId: string },
  action: TCertificateAction,
): Promise<TActionHold | null> {
  let hold: TActionHold | null = null;
  for (const limit of CERTIFICATE_ACTION_LIMITS[action]) {
    const of = limit.scope === 'proxy' ? { configurationId: proxy.id } : { ownerId: proxy.userId };
    const started = await history.startedWithin(of, action, limit.windowMs, limit.max);
    if (started.length < limit.max) continue;
    const retryAt = wholeMinuteFrom(started[limit.max - 1]!.getTime() + limit.windowMs);
    if (!hold || retryAt.getTime() > Date.parse(hold.retryAt)) {
      hold = { limit: limit.id, max: limit.max, retryAt: retryAt.toISOString() };
    }
  }
  return hold;
}

/** The refusal of a held action: why (the limit and its reason) and when, in the caller's words. */
export function actionLimited(action: TCertificateAction, hold: TActionHold, lang: TLanguage) {
  return new RetryLaterError(
    action === 'renew' ? 'renewal_limited' : 'renewal_test_limited',
    `errors.actionLimited.${hold.limit}`,
    new Date(hold.retryAt),
    { max: hold.max, at: renderText(lang, { date: hold.retryAt }) },
  );
}
