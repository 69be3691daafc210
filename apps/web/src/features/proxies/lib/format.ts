import { toDate } from '@/lib/format-date';

/** Certificates renew 30 days before expiry; under 14 days left means renewal is failing. */
const EXPIRY_WARNING_DAYS = 14;

export function expiryTone(
  value: string | null | undefined,
  now: Date = new Date(),
): 'expired' | 'soon' | 'ok' | null {
  const date = toDate(value);
  if (!date) return null;
  const left = date.getTime() - now.getTime();
  if (left <= 0) return 'expired';
  return left < EXPIRY_WARNING_DAYS * 24 * 60 * 60 * 1000 ? 'soon' : 'ok';
}
