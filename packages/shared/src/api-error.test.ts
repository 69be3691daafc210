import { describe, expect, it } from 'vitest';
import { isLanguage, pickLanguage } from './api-error';
import { translate } from './i18n/translate';

describe('isLanguage', () => {
  it.each([
    ['es', true],
    ['en', true],
    ['EN', false],
    ['fr', false],
    ['', false],
    ['constructor', false],
    [undefined, false],
    [['en'], false],
  ])('%s → %s', (value, expected) => expect(isLanguage(value)).toBe(expected));
});

describe('pickLanguage', () => {
  it.each([
    [undefined, 'es'],
    ['en-US,en;q=0.9', 'en'],
    ['fr-FR,en;q=0.5,es;q=0.8', 'es'],
    ['de', 'es'],
  ])('%s → %s', (header, lang) => expect(pickLanguage(header)).toBe(lang));

  it('answers the same when asked again, and after 300 other headers', () => {
    expect(pickLanguage('en-US,en;q=0.9')).toBe('en');
    for (let i = 0; i < 300; i++) pickLanguage(`x${i},es;q=0.${i % 9}`);
    expect(pickLanguage('en-US,en;q=0.9')).toBe('en');
    expect(pickLanguage('fr-FR,en;q=0.5,es;q=0.8')).toBe('es');
  });
});

describe('translate', () => {
  it('interpolates and passes unknown keys through', () => {
    expect(translate('en', 'errors.rateLimited', { seconds: 30 })).toContain('30 seconds');
    expect(translate('es', 'nginx: [emerg] bad')).toBe('nginx: [emerg] bad');
  });
});
