/**
 * How urgent a certificate is, judged from its validity and the last live check. One rule for
 * the server (alerts, the admin list) and the screens (badges): fine while more than a third of
 * the certificate's lifetime is left; warning below that; danger below a sixth, once expired, or
 * when the last check of the site failed. Fractions of the certificate's own lifetime, not days:
 * a fixed number of days would call a 6-day certificate in danger from its first minute, and a
 * 90-day one fine until a week before it ends, long after a renewal that failed should show.
 */
export const CERTIFICATE_STATES = ['fine', 'warning', 'danger'] as const;
export type TCertificateState = (typeof CERTIFICATE_STATES)[number];

/** Below these fractions of the lifetime left, a certificate is a warning, then in danger. */
export const WARNING_FRACTION = 1 / 3;
export const DANGER_FRACTION = 1 / 6;
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
  const lifetime = notAfter - time(validity.notBefore);
  if (left <= 0 || left < lifetime * DANGER_FRACTION) return 'danger';
  return left < lifetime * WARNING_FRACTION ? 'warning' : 'fine';
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
