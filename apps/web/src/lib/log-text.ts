import type { TLanguage } from '@portico/shared/api-error';
import { interpolate } from '@portico/shared/i18n/interpolate';
import { renderStoredWith, type TText } from '@portico/shared/i18n/text';
import type { TLogLevel } from '@portico/shared/proxy/schemas';
import type { i18n as TI18n } from 'i18next';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { SERVER_TEXTS } from './i18n';

/** A log line as the screens hold it: the server's words, and the text they came from. */
type TLineWords = { message: string; text?: TText | null };

export type TLogText = {
  lang: TLanguage;
  /** The line in the screen's language (Portico's own words; tool output verbatim). */
  line: (line: TLineWords) => string;
  /** A text in the screen's language. */
  text: (text: TText) => string;
  /** The level as every screen and the downloaded file show it ("ÉXITO" / "SUCCESS"). */
  level: (level: TLogLevel) => string;
};

function languageOf(i18n: TI18n): TLanguage {
  return (i18n.resolvedLanguage ?? i18n.language) === 'en' ? 'en' : 'es';
}

/**
 * Renders stored texts the way the server does (shared/i18n/text), from the app's catalogs: the
 * server's sentences (SERVER_TEXTS, loaded before a screen that shows them) and the screen
 * texts. `{{name}}` is filled once, so a value is never read as a template.
 */
export function logText(i18n: TI18n): TLogText {
  const lang = languageOf(i18n);
  const t = (key: string, params: Record<string, string>) => {
    const template: unknown =
      i18n.getResource(lang, SERVER_TEXTS, key) ?? i18n.getResource(lang, 'translation', key);
    return typeof template === 'string' ? interpolate(template, params) : key;
  };
  return {
    lang,
    line: (line) => renderStoredWith(lang, line, t),
    text: (text) => renderStoredWith(lang, { message: '', text }, t),
    level: (level) => t(`logs.level.${level}`, {}).toLocaleUpperCase(lang),
  };
}

/**
 * logText for the current language; components re-render when it changes. Suspends until the
 * server's sentences of the language are in (the routes that show them load them first).
 */
export function useLogText(): TLogText {
  const { i18n } = useTranslation(SERVER_TEXTS);
  const lang = languageOf(i18n);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new renderer per language
  return React.useMemo(() => logText(i18n), [i18n, lang]);
}

/** One line per entry, `[LEVEL] ISO timestamp - message`, in the reader's language. */
export function formatLogDownload(
  lines: readonly (TLineWords & { level: TLogLevel; timestamp: string })[],
  words: TLogText,
): string {
  return lines
    .map((l) => {
      const date = new Date(l.timestamp);
      const iso = Number.isNaN(date.getTime()) ? l.timestamp : date.toISOString();
      return `[${words.level(l.level)}] ${iso} - ${words.line(l)}`;
    })
    .join('\n');
}
