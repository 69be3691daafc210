/**
 * How urgent a certificate is, judged from its validity and the last live check. One rule for
 * the server (alerts, the admin list) and the screens (badges): fine while more than a third of
 * the certificate's lifetime is left; warning below that; danger under 7 days left, once
 * expired, or when the last check of the site failed.
 */
export const CERTIFICATE_STATES = ['fine', 'warning', 'danger'] as const;
export type TCertificateState = (typeof CERTIFICATE_STATES)[number];

export const DANGER_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

const RANK: Record<TCertificateState, number> = { fine: 0, warning: 1, danger: 2 };

/** The worse of two states. */
export function worseState(a: TCertificateState, b: TCertificateState): TCertificateState {
  return RANK[a] >= RANK[b] ? a : b;
}

/** True when `next` is more urgent than `previous`. */
export function isWorse(next: TCertificateState, previous: TCertificateState): boolean {
  return RANK[next] > RANK[previous];
}

function time(value: Date | string): number {
  return typeof value === 'string' ? new Date(value).getTime() : value.getTime();
}

/** The state from the validity alone (what the certificate's dates say at `now`). */
export function expiryState(
  validity: { notBefore: Date | string; notAfter: Date | string },
  now: Date,
): TCertificateState {
  const notAfter = time(validity.notAfter);
  const left = notAfter - now.getTime();
  if (left < DANGER_DAYS * DAY_MS) return 'danger';
  const lifetime = notAfter - time(validity.notBefore);
  return left < lifetime / 3 ? 'warning' : 'fine';
}

/** Whole days left until `notAfter` (negative once it has passed; 0 on its last day). */
export function daysLeft(notAfter: Date | string, now: Date): number {
  return Math.floor((time(notAfter) - now.getTime()) / DAY_MS);
}

/** The state shown and alerted on: a failed last check is danger whatever the dates say. */
export function certificateState(
  validity: { notBefore: Date | string; notAfter: Date | string },
  checkFailed: boolean,
  now: Date,
): TCertificateState {
  return checkFailed ? 'danger' : expiryState(validity, now);
}
