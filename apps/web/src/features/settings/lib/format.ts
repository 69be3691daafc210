function formatMoment(
  value: string | null | undefined,
  lang: string,
  style: Intl.DateTimeFormatOptions,
): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(lang.startsWith('en') ? 'en-GB' : 'es-ES', style).format(date);
}

/** A moment as the reader's language writes it ("12 Mar 2026, 14:05"), or "" when missing. */
export function formatDate(value: string | null | undefined, lang: string): string {
  return formatMoment(value, lang, { dateStyle: 'medium', timeStyle: 'short' });
}

/** A time of day as the reader's language writes it ("14:05"), or "" when missing. */
export function formatTime(value: string | null | undefined, lang: string): string {
  return formatMoment(value, lang, { timeStyle: 'short' });
}
