import { DEFAULT_LANGUAGE, SUPPORTED_LANGUAGES, type TLanguage } from '@portico/shared/api-error';
import sharedEn from '@portico/shared/locales/en.json';
import sharedEs from '@portico/shared/locales/es.json';
import { createInstance, type i18n as TI18n } from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import webEn from '@/locales/en.json';
import webEs from '@/locales/es.json';

// Shared catalogs hold `validation` and `errors` (zod messages are their keys); the web catalog
// holds screen texts under other top-level keys, so a flat merge loses nothing.
export const resources = {
  en: { translation: { ...sharedEn, ...webEn } },
  es: { translation: { ...sharedEs, ...webEs } },
} as const;

export const LANGUAGE_STORAGE_KEY = 'i18nextLng';
export const DETECTION_ORDER = ['localStorage', 'navigator', 'htmlTag'];

function syncHtmlLang(instance: TI18n): void {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = instance.resolvedLanguage ?? instance.language;
}

/** A configured instance; tests create their own to start from a clean detection. */
export function createI18n(): TI18n {
  const instance = createInstance();
  instance.use(LanguageDetector).use(initReactI18next);
  instance.on('languageChanged', () => syncHtmlLang(instance));
  void instance.init({
    resources,
    supportedLngs: [...SUPPORTED_LANGUAGES],
    nonExplicitSupportedLngs: true,
    load: 'languageOnly',
    fallbackLng: DEFAULT_LANGUAGE,
    initAsync: false,
    interpolation: { escapeValue: false },
    detection: {
      order: DETECTION_ORDER,
      caches: ['localStorage'],
      lookupLocalStorage: LANGUAGE_STORAGE_KEY,
      // Keep only the language part, so local storage and <html lang> hold 'en', not 'en-GB'.
      convertDetectedLanguage: (lng: string) => lng.split('-')[0]?.toLowerCase() ?? lng,
    },
  });
  syncHtmlLang(instance);
  return instance;
}

export const i18n = createI18n();

export function currentLanguage(): TLanguage {
  const lng = i18n.resolvedLanguage ?? i18n.language;
  return (SUPPORTED_LANGUAGES as readonly string[]).includes(lng) ? (lng as TLanguage) : 'es';
}
