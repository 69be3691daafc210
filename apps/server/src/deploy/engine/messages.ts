import type { TLanguage } from '@portico/shared/api-error';
import { renderText, type TText } from '@portico/shared/i18n/text';

/**
 * Portico's own sentences in the engine's log and failure messages are catalog keys
 * (`deployLog.*`) with their values, kept as texts (shared/i18n/text.ts): the run stores them
 * so each reader sees them in their own language; tool output is verbatim text and is never
 * translated. `msg` makes one; `say` renders one in a language (tests, and the few places that
 * need the words at once).
 */
export function msg(key: string, params?: Record<string, TText>): TText {
  return params ? { key: `deployLog.${key}`, params } : { key: `deployLog.${key}` };
}

export function say(
  from: { lang: TLanguage } | TLanguage,
  key: string,
  params?: Record<string, TText>,
): string {
  const lang = typeof from === 'string' ? from : from.lang;
  return renderText(lang, msg(key, params));
}

/** "a and b" / "a y b". */
export function joinAnd(items: TText[]): TText {
  return { join: items, sep: msg('and') };
}

/** A quantity written the reader's way ("4.6" / "4,6"). */
export function quantity(value: number, digits = 0): TText {
  return { number: value, digits };
}
