import type { TLanguage } from '@portico/shared/api-error';
import { type TMessageParams, translate } from '@portico/shared/i18n/translate';

/**
 * Portico's own sentences in the engine's log and failure messages come from the shared
 * catalogs (`deployLog.*`), so Spanish users read Spanish; tool output is never translated.
 * `from` is anything that knows the run's language: the run's EngineLog, or the language itself.
 */
export function say(
  from: { lang: TLanguage } | TLanguage,
  key: string,
  params: TMessageParams = {},
): string {
  const lang = typeof from === 'string' ? from : from.lang;
  return translate(lang, `deployLog.${key}`, params);
}

/** "a and b" / "a y b". */
export function joinAnd(from: { lang: TLanguage } | TLanguage, items: (string | number)[]): string {
  return items.join(say(from, 'and'));
}
