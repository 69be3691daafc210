import { LANGUAGE_COOKIE } from '@portico/shared/i18n/language';
import sharedEn from '@portico/shared/locales/en.json';
import sharedEs from '@portico/shared/locales/es.json';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadCatalogNow } from '@/test/catalogs';
import {
  createI18n,
  DETECTION_ORDER,
  i18nReady,
  LANGUAGE_STORAGE_KEY,
  loadTexts,
  SERVER_TEXTS,
  type TCatalogLoader,
} from './i18n';

function setBrowserLanguages(languages: string[]): void {
  Object.defineProperty(window.navigator, 'languages', {
    configurable: true,
    get: () => languages,
  });
  Object.defineProperty(window.navigator, 'language', {
    configurable: true,
    get: () => languages[0] ?? '',
  });
}

afterEach(() => {
  document.documentElement.lang = '';
  setBrowserLanguages(['en-US', 'en']);
});

describe('language detection', () => {
  it('looks in local storage, its cookie, then the browser language, then the page language tag', () => {
    expect(DETECTION_ORDER).toEqual(['localStorage', 'cookie', 'navigator', 'htmlTag']);
  });

  it('keeps the choice as a cookie the server reads too, and reads it back', async () => {
    setBrowserLanguages(['es-ES']);
    const i18n = createI18n(loadCatalogNow);
    await i18n.changeLanguage('en');
    expect(document.cookie).toContain(`${LANGUAGE_COOKIE}=en`);
    localStorage.clear();
    expect(createI18n(loadCatalogNow).resolvedLanguage).toBe('en');
  });

  it('prefers the language stored in local storage over the browser language', () => {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, 'en');
    setBrowserLanguages(['es-ES']);
    expect(createI18n(loadCatalogNow).resolvedLanguage).toBe('en');
  });

  it('uses the browser language when nothing is stored, and caches it in local storage', () => {
    setBrowserLanguages(['en-GB', 'en']);
    const i18n = createI18n(loadCatalogNow);
    expect(i18n.resolvedLanguage).toBe('en');
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('en');
    expect(document.documentElement.lang).toBe('en');
  });

  it('falls through an unsupported browser language to the page language tag', () => {
    setBrowserLanguages(['fr-FR', 'fr']);
    document.documentElement.lang = 'en';
    expect(createI18n(loadCatalogNow).resolvedLanguage).toBe('en');
  });

  it('falls back to Spanish when nothing detected is supported', () => {
    setBrowserLanguages(['de-DE', 'de']);
    const i18n = createI18n(loadCatalogNow);
    expect(i18n.resolvedLanguage).toBe('es');
    expect(i18n.t('validation.password.mismatch')).toBe('Las contraseñas deben coincidir');
  });

  it('switches at once, caches the choice and keeps <html lang> in sync', async () => {
    setBrowserLanguages(['es-ES']);
    const i18n = createI18n(loadCatalogNow);
    expect(i18n.t('landing.tabs.login')).toBe('Iniciar sesión');
    await i18n.changeLanguage('en');
    expect(i18n.t('landing.tabs.login')).toBe('Log in');
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('en');
    expect(document.documentElement.lang).toBe('en');
  });
});

/** An instance whose catalog loads are recorded (language, namespace), once it has its texts. */
async function startRecordingLoads() {
  const load = vi.fn<TCatalogLoader>(async (language, namespace) =>
    loadCatalogNow(language, namespace),
  );
  const i18n = createI18n(load);
  await i18nReady(i18n);
  return { i18n, load };
}

describe('catalogs loaded per language', () => {
  it('fetches only the language on screen, and the other one when switching to it', async () => {
    setBrowserLanguages(['es-ES']);
    const { i18n, load } = await startRecordingLoads();
    expect(load.mock.calls).toEqual([['es', 'translation']]);
    expect(i18n.t('landing.tabs.login')).toBe('Iniciar sesión');
    await i18n.changeLanguage('en');
    expect(load.mock.calls).toEqual([
      ['es', 'translation'],
      ['en', 'translation'],
    ]);
    expect(i18n.t('landing.tabs.login')).toBe('Log in');
    expect(i18n.t('validation.password.mismatch')).toBe('Passwords must match');
  });

  it('loads nothing but Spanish for a browser language Portico does not offer', async () => {
    setBrowserLanguages(['fr-FR', 'fr']);
    const { i18n, load } = await startRecordingLoads();
    expect(load.mock.calls).toEqual([['es', 'translation']]);
    expect(i18n.resolvedLanguage).toBe('es');
  });

  it('reads each language from its own chunk by default', async () => {
    setBrowserLanguages(['en-GB']);
    const i18n = createI18n();
    await i18nReady(i18n);
    expect(i18n.t('landing.tabs.login')).toBe('Log in');
    await i18n.changeLanguage('es');
    expect(i18n.t('errors.network')).toBe('Error de red. Comprueba tu conexión.');
    await loadTexts(SERVER_TEXTS, i18n);
    expect(i18n.t('deployLog.nginx.testPassed', { ns: SERVER_TEXTS })).toBe(
      sharedEs.deployLog.nginx.testPassed,
    );
  });
});

describe('the server’s sentences (deployment log, failures, checks)', () => {
  it('are loaded only when asked for, then with every language switch', async () => {
    setBrowserLanguages(['es-ES']);
    const { i18n, load } = await startRecordingLoads();
    expect(load.mock.calls).toEqual([['es', 'translation']]);
    expect(i18n.t('deployLog.nginx.testPassed', { ns: SERVER_TEXTS })).toBe(
      'deployLog.nginx.testPassed',
    );

    await loadTexts(SERVER_TEXTS, i18n);
    expect(load.mock.calls.at(-1)).toEqual(['es', SERVER_TEXTS]);
    expect(i18n.t('deployLog.nginx.testPassed', { ns: SERVER_TEXTS })).toBe(
      sharedEs.deployLog.nginx.testPassed,
    );

    await i18n.changeLanguage('en');
    expect(load.mock.calls.slice(2)).toEqual(
      expect.arrayContaining([
        ['en', 'translation'],
        ['en', SERVER_TEXTS],
      ]),
    );
    expect(i18n.t('deployLog.nginx.testPassed', { ns: SERVER_TEXTS })).toBe(
      sharedEn.deployLog.nginx.testPassed,
    );
  });

  it('refuse to load without their chunk, so the screen that needs them fails where it loads', async () => {
    setBrowserLanguages(['es-ES']);
    const gone = new TypeError('Failed to fetch dynamically imported module');
    const i18n = createI18n(async (language, namespace) => {
      if (namespace === SERVER_TEXTS) throw gone;
      return loadCatalogNow(language, namespace);
    });
    await i18nReady(i18n);
    await expect(loadTexts(SERVER_TEXTS, i18n)).rejects.toBe(gone);
    // Asked again (another screen), still refused: i18next does not fetch a failed one twice.
    await expect(loadTexts(SERVER_TEXTS, i18n)).rejects.toThrow(SERVER_TEXTS);
  });
});
