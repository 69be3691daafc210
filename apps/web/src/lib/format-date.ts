import { format, formatDistance, isValid, parseISO } from 'date-fns';
import { enUS, es } from 'date-fns/locale';

// Creation and log times yyyy-MM-dd HH:mm:ss, last update yyyy-MM-dd HH:mm.
const DATE_TIME_SECONDS = 'yyyy-MM-dd HH:mm:ss';
const DATE_TIME_MINUTES = 'yyyy-MM-dd HH:mm';

export function toDate(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = parseISO(value);
  return isValid(date) ? date : null;
}

function localeOf(lang: string) {
  return lang.startsWith('en') ? enUS : es;
}

/** yyyy-MM-dd HH:mm:ss in local time, or null when missing or unreadable (shown as N/A). */
export function formatDateTime(value: string | null | undefined): string | null {
  const date = toDate(value);
  return date ? format(date, DATE_TIME_SECONDS) : null;
}

/** yyyy-MM-dd HH:mm in local time, or null. */
export function formatDateMinutes(value: string | null | undefined): string | null {
  const date = toDate(value);
  return date ? format(date, DATE_TIME_MINUTES) : null;
}

/** A day with the month in words of the language ("Nov 22, 2026" / "22 nov 2026"), or null. */
export function formatDay(value: string | null | undefined, lang: string): string | null {
  const date = toDate(value);
  return date ? format(date, 'PP', { locale: localeOf(lang) }) : null;
}

/**
 * A moment with the month in words and the time, the language's way ("Nov 22, 2026, 4:05 PM" /
 * "22 nov 2026, 16:05"): what a proxy's summary and details page say of every date, or null.
 */
export function formatMoment(value: string | null | undefined, lang: string): string | null {
  const date = toDate(value);
  return date ? format(date, 'PPp', { locale: localeOf(lang) }) : null;
}

/** "in 3 months" / "dentro de 3 meses", "2 hours ago" / "hace 2 horas", or null. */
export function formatRelative(
  value: string | null | undefined,
  lang: string,
  now: Date = new Date(),
): string | null {
  const date = toDate(value);
  if (!date) return null;
  return formatDistance(date, now, { addSuffix: true, locale: localeOf(lang) });
}
