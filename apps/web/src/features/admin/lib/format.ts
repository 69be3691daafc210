import { format, formatDistance, isValid, parseISO } from 'date-fns';
import { enUS, es } from 'date-fns/locale';

function toDate(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = parseISO(value);
  return isValid(date) ? date : null;
}

/** "2 hours ago" / "hace 2 horas", or null when the value is missing or unreadable. */
export function relativeTime(
  value: string | null | undefined,
  lang: string,
  now: Date = new Date(),
): string | null {
  const date = toDate(value);
  if (!date) return null;
  return formatDistance(date, now, {
    addSuffix: true,
    locale: lang.startsWith('en') ? enUS : es,
  });
}

/** yyyy-MM-dd HH:mm:ss in local time, or null. */
export function exactTime(value: string | null | undefined): string | null {
  const date = toDate(value);
  return date ? format(date, 'yyyy-MM-dd HH:mm:ss') : null;
}
