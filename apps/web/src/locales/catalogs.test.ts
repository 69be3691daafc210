import sharedEn from '@portico/shared/locales/en.json';
import { describe, expect, it } from 'vitest';
import en from './en.json';
import es from './es.json';

type TCatalog = { [key: string]: string | TCatalog };

function keys(catalog: TCatalog, prefix = ''): string[] {
  return Object.entries(catalog).flatMap(([k, v]) =>
    typeof v === 'string' ? [`${prefix}${k}`] : keys(v, `${prefix}${k}.`),
  );
}

describe('web catalogs', () => {
  it('have the same keys in English and Spanish', () => {
    expect(keys(es).sort()).toEqual(keys(en).sort());
  });

  it('have no empty text', () => {
    for (const catalog of [en, es]) {
      const empty = keys(catalog).filter((k) => {
        const value = k.split('.').reduce<unknown>((n, p) => (n as TCatalog)[p], catalog);
        return typeof value !== 'string' || value.trim() === '';
      });
      expect(empty).toEqual([]);
    }
  });

  it('do not overwrite the shared catalogs when merged', () => {
    const sharedTop = Object.keys(sharedEn);
    expect(Object.keys(en).filter((k) => sharedTop.includes(k))).toEqual([]);
  });
});
