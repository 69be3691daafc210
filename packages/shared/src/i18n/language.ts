export const SUPPORTED_LANGUAGES = ['es', 'en'] as const;
export type TLanguage = (typeof SUPPORTED_LANGUAGES)[number];
export const DEFAULT_LANGUAGE: TLanguage = 'es';

/** Whether a value from outside (a cookie, a query, a header's tag) names a language Portico speaks. */
export function isLanguage(value: unknown): value is TLanguage {
  return typeof value === 'string' && (SUPPORTED_LANGUAGES as readonly string[]).includes(value);
}

/**
 * The language chosen in the web app, kept as a cookie beside its local storage: the server
 * reads it (before Accept-Language) to send the landing page already written in it.
 */
export const LANGUAGE_COOKIE = 'portico.lang';

// Header -> language. Bounded: anyone can send any header.
const picks = new Map<string, TLanguage>();
const PICKS_KEPT = 256;

/** Picks en or es from an Accept-Language header; Spanish is the default and fallback (§1). */
export function pickLanguage(header: string | undefined | null): TLanguage {
  if (!header) return DEFAULT_LANGUAGE;
  // A browser sends the same header on every request: the server asks once per answer.
  let picked = picks.get(header);
  if (picked === undefined) {
    picked = rank(header);
    if (picks.size >= PICKS_KEPT) picks.clear();
    picks.set(header, picked);
  }
  return picked;
}

function rank(header: string): TLanguage {
  const ranked = header
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.find((p) => p.trim().startsWith('q='));
      return { lang: tag.toLowerCase().slice(0, 2), q: q ? Number(q.trim().slice(2)) : 1 };
    })
    .filter((entry) => !Number.isNaN(entry.q))
    .sort((a, b) => b.q - a.q);
  for (const entry of ranked) if (isLanguage(entry.lang)) return entry.lang;
  return DEFAULT_LANGUAGE;
}
