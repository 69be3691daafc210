import { z } from 'zod';
import type { TLanguage } from '../api-error';
import { translate } from './translate';

/**
 * A sentence kept as what it means rather than as words of one language, so it can be stored
 * once and shown in the reader's language later (deployment logs, failure messages). A plain
 * string is verbatim text (a tool's output, a path, a domain) and is never translated; a plain
 * number is an identifier (a port, an exit status) and is never grouped or localised.
 */
export type TText = string | number | TTextKey | TTextJoin | TTextNumber | TTextDate;

/** A catalog sentence (full dotted key), its {{values}} themselves texts. */
interface TTextKey {
  key: string;
  params?: Record<string, TText>;
}
/** Texts one after another, with `sep` (itself a text, e.g. the word "and") between them. */
interface TTextJoin {
  join: TText[];
  sep?: TText;
}
/** A quantity, written the reader's way ("4.6" / "4,6") with `digits` decimals. */
interface TTextNumber {
  number: number;
  digits?: number;
}
/** A moment (ISO 8601), written in the reader's language, in UTC. */
interface TTextDate {
  date: string;
}

export const ZText: z.ZodType<TText> = z
  .lazy(() =>
    z.union([
      z.string(),
      z.number(),
      z.object({ key: z.string(), params: z.record(z.string(), ZText).optional() }),
      z.object({ join: z.array(ZText), sep: ZText.optional() }),
      z.object({ number: z.number(), digits: z.number().int().min(0).max(6).optional() }),
      z.object({ date: z.string() }),
    ]),
  )
  .meta({ id: 'Text' });

type TTranslateFn = (key: string, params: Record<string, string>) => string;

const LOCALES: Record<TLanguage, string> = { en: 'en-US', es: 'es-ES' };

function formatNumber(lang: TLanguage, value: TTextNumber): string {
  const digits = value.digits ?? 0;
  return new Intl.NumberFormat(LOCALES[lang], {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(value.number);
}

function formatDate(lang: TLanguage, iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const words = new Intl.DateTimeFormat(LOCALES[lang], {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(date);
  return `${words} UTC`;
}

/**
 * The text in `lang`, catalog keys resolved by `t`. Holds no catalog: the web passes its own
 * i18next catalogs (the language on screen only), so the screens that render stored texts do
 * not download the shared catalogs of both languages with this module.
 */
export function renderTextWith(lang: TLanguage, text: TText, t: TTranslateFn): string {
  if (typeof text === 'string') return text;
  if (typeof text === 'number') return String(text);
  if ('key' in text) {
    const params: Record<string, string> = {};
    for (const [name, value] of Object.entries(text.params ?? {})) {
      params[name] = renderTextWith(lang, value, t);
    }
    return t(text.key, params);
  }
  if ('join' in text) {
    const sep = text.sep === undefined ? '' : renderTextWith(lang, text.sep, t);
    return text.join.map((part) => renderTextWith(lang, part, t)).join(sep);
  }
  if ('number' in text) return formatNumber(lang, text);
  return formatDate(lang, text.date);
}

/** A stored line: its text when it was stored as one, else the plain message of older rows. */
export function renderStoredWith(
  lang: TLanguage,
  stored: { message: string; text?: TText | null },
  t: TTranslateFn,
): string {
  return stored.text === null || stored.text === undefined
    ? stored.message
    : renderTextWith(lang, stored.text, t);
}

const sharedCatalog =
  (lang: TLanguage): TTranslateFn =>
  (key, params) =>
    translate(lang, key, params);

/** The text in `lang` from the shared catalogs (the server's messages). */
export function renderText(lang: TLanguage, text: TText): string {
  return renderTextWith(lang, text, sharedCatalog(lang));
}

/** renderStoredWith from the shared catalogs (the server's messages). */
export function renderStored(
  lang: TLanguage,
  stored: { message: string; text?: TText | null },
): string {
  return renderStoredWith(lang, stored, sharedCatalog(lang));
}
