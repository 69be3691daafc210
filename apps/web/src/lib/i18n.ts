import {
  DEFAULT_LANGUAGE,
  isLanguage,
  LANGUAGE_COOKIE,
  SUPPORTED_LANGUAGES,
  type TLanguage,
} from '@portico/shared/i18n/language';
import { type BackendModule, createInstance, type i18n as TI18n } from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';

export type TCatalog = Record<string, unknown>;

/**
 * The namespace of the server's sentences (deployment log lines, failures, checks: the shared
 * catalog whole), which the screens render from the texts stored with them (lib/log-text). Only
 * the screens that show them load it; from then on each language switch loads it too.
 */
export const SERVER_TEXTS = 'server';
/**
 * The namespace of the web's `certificate` group (expiry badges, a proxy's summary, the
 * certificate section, the admin's certificate list): only screens behind sign-in show them, so they stay out of the
 * landing page's catalog. Its keys keep their `certificate.` prefix; useCertificateTexts looks
 * them up.
 */
export const CERTIFICATE_TEXTS = 'certificate';
/**
 * The namespace of the web's `settings` group (the settings page, the required two-factor
 * setup): screens behind sign-in only, kept out of the landing page's catalog like the
 * certificate texts. Its keys keep their `settings.` prefix; useSettingsTexts looks them up.
 */
export const SETTINGS_TEXTS = 'settings';
/**
 * The namespace of the web's `plan` group (a deployment's plan: files, diffs, commands; the
 * details page and the edit dialog): behind sign-in only, like the certificate texts. Its keys
 * keep their `plan.` prefix; usePlanTexts looks them up.
 */
export const PLAN_TEXTS = 'plan';
/** The web's `options` group (a proxy's options): behind sign-in, like the settings texts. */
export const OPTIONS_TEXTS = 'options';
/**
 * The namespace of the web's `lists` group (search, filter chips and pager of the lists in
 * pages): screens behind sign-in only, kept out of the landing page's catalog like the others.
 * Its keys keep their `lists.` prefix; useListTexts looks them up.
 */
export const LISTS_TEXTS = 'lists';
/**
 * The namespace of the web's `servers` group (the saved servers' list and page): screens behind
 * sign-in only, kept out of the landing page's catalog. Its keys keep their `servers.` prefix;
 * useServersTexts looks them up.
 */
export const SERVERS_TEXTS = 'servers';
/** The web's `admin` group (the admin panel's screens): behind sign-in, for admins only. */
export const ADMIN_TEXTS = 'admin';
const NAMESPACES = [
  'translation',
  SERVER_TEXTS,
  CERTIFICATE_TEXTS,
  SETTINGS_TEXTS,
  PLAN_TEXTS,
  OPTIONS_TEXTS,
  LISTS_TEXTS,
  SERVERS_TEXTS,
  ADMIN_TEXTS,
] as const;
export type TNamespace = (typeof NAMESPACES)[number];

/**
 * A language's texts: `translation` holds the screen texts with the shared validation and error
 * texts; SERVER_TEXTS the shared catalog whole; CERTIFICATE_TEXTS, SETTINGS_TEXTS, PLAN_TEXTS,
 * OPTIONS_TEXTS, LISTS_TEXTS and SERVERS_TEXTS the web's groups of those names.
 */
export type TCatalogLoader = (
  language: TLanguage,
  namespace: TNamespace,
) => TCatalog | Promise<TCatalog>;

/**
 * Each language's texts are a chunk of their own, fetched when that language is first shown:
 * a visitor downloads only the language on screen, and the other one when switching to it.
 */
const loadCatalogChunk: TCatalogLoader = async (language, namespace) => {
  if (namespace === CERTIFICATE_TEXTS) {
    return language === 'en'
      ? (await import('@/locales/en-certificate')).catalog
      : (await import('@/locales/es-certificate')).catalog;
  }
  if (namespace === SETTINGS_TEXTS) {
    return language === 'en'
      ? (await import('@/locales/en-settings')).catalog
      : (await import('@/locales/es-settings')).catalog;
  }
  if (namespace === PLAN_TEXTS) {
    return language === 'en'
      ? (await import('@/locales/en-plan')).catalog
      : (await import('@/locales/es-plan')).catalog;
  }
  if (namespace === OPTIONS_TEXTS) {
    return language === 'en'
      ? (await import('@/locales/en-options')).catalog
      : (await import('@/locales/es-options')).catalog;
  }
  if (namespace === LISTS_TEXTS) {
    return language === 'en'
      ? (await import('@/locales/en-lists')).catalog
      : (await import('@/locales/es-lists')).catalog;
  }
  if (namespace === ADMIN_TEXTS) {
    return language === 'en'
      ? (await import('@/locales/en-admin')).catalog
      : (await import('@/locales/es-admin')).catalog;
  }
  if (namespace === SERVERS_TEXTS) {
    return language === 'en'
      ? (await import('@/locales/en-servers')).catalog
      : (await import('@/locales/es-servers')).catalog;
  }
  if (namespace === SERVER_TEXTS) {
    return language === 'en'
      ? (await import('@/locales/en-server')).catalog
      : (await import('@/locales/es-server')).catalog;
  }
  return language === 'en'
    ? (await import('@/locales/en-catalog')).catalog
    : (await import('@/locales/es-catalog')).catalog;
};

export const LANGUAGE_STORAGE_KEY = 'i18nextLng';
export const DETECTION_ORDER = ['localStorage', 'cookie', 'navigator', 'htmlTag'];

function isNamespace(namespace: string): namespace is TNamespace {
  return (NAMESPACES as readonly string[]).includes(namespace);
}

function catalogBackend(load: TCatalogLoader): BackendModule {
  return {
    type: 'backend',
    init() {},
    read(language, namespace, callback) {
      if (!isLanguage(language) || !isNamespace(namespace)) return callback(null, {});
      const catalog = load(language, namespace);
      // A loader that answers at once (tests) keeps i18next synchronous.
      if (!(catalog instanceof Promise)) return callback(null, catalog);
      catalog.then(
        (texts) => callback(null, texts),
        (error: Error) => callback(error, false),
      );
    },
  };
}

function syncHtmlLang(instance: TI18n): void {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = instance.resolvedLanguage ?? instance.language;
}

/**
 * A configured instance; tests create their own to start from a clean detection, with a loader
 * that has every catalog at hand. `language` skips detection (the build's prerender has no
 * browser to detect from).
 */
export function createI18n(load: TCatalogLoader = loadCatalogChunk, language?: TLanguage): TI18n {
  const instance = createInstance();
  instance.use(LanguageDetector).use(initReactI18next).use(catalogBackend(load));
  instance.on('languageChanged', () => syncHtmlLang(instance));
  void instance.init({
    supportedLngs: [...SUPPORTED_LANGUAGES],
    nonExplicitSupportedLngs: true,
    load: 'languageOnly',
    // Spanish when nothing detected is supported. Not a fallback for missing texts (both
    // catalogs have every key, catalogs.test.ts): an English visitor loads no Spanish.
    fallbackLng: (code) => (code ? [] : [DEFAULT_LANGUAGE]),
    initAsync: false,
    ...(language ? { lng: language } : {}),
    interpolation: { escapeValue: false },
    detection: {
      order: DETECTION_ORDER,
      caches: ['localStorage', 'cookie'],
      lookupLocalStorage: LANGUAGE_STORAGE_KEY,
      lookupCookie: LANGUAGE_COOKIE,
      cookieMinutes: 60 * 24 * 365,
      cookieOptions: { path: '/', sameSite: 'lax' },
      // Keep only the language part, so local storage and <html lang> hold 'en', not 'en-GB'.
      convertDetectedLanguage: (lng: string) => lng.split('-')[0]?.toLowerCase() ?? lng,
    },
  });
  syncHtmlLang(instance);
  return instance;
}

/** Resolves once the instance has the texts of its first language. */
export function i18nReady(instance: TI18n): Promise<void> {
  if (instance.isInitialized) return Promise.resolve();
  return new Promise((resolve) => instance.on('initialized', () => resolve()));
}

export const i18n = createI18n();

/**
 * Loads a namespace of the language on screen; i18next then loads it with every language switch
 * before it announces the new language, so a screen never re-renders without it. Rejects when
 * its chunk did not arrive (i18next itself would go on without it), so a screen that needs it
 * fails where it loads and the error boundary says so, instead of showing catalog keys.
 */
export function loadTexts(namespace: TNamespace, instance: TI18n = i18n): Promise<void> {
  return new Promise((resolve, reject) => {
    instance.loadNamespaces(namespace, (errors: unknown) => {
      const lang = instance.resolvedLanguage ?? instance.language;
      if (instance.hasResourceBundle(lang, namespace)) return resolve();
      const first: unknown = Array.isArray(errors) ? errors[0] : errors;
      reject(first instanceof Error ? first : new Error(`no ${namespace} texts for ${lang}`));
    });
  });
}

export function currentLanguage(): TLanguage {
  const lng = i18n.resolvedLanguage ?? i18n.language;
  return isLanguage(lng) ? lng : DEFAULT_LANGUAGE;
}
