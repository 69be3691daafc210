import type { TLanguage } from '../api-error';
import en from '../locales/en.json';
import es from '../locales/es.json';
import { interpolate, type TMessageParams } from './interpolate';

export type { TMessageParams };

type TCatalog = { [key: string]: string | TCatalog };
const catalogs: Record<TLanguage, TCatalog> = { en, es };

/**
 * Resolves a dotted key in the shared catalog, interpolating {{name}}. Unknown keys come back
 * unchanged, so a message that is not a key (a tool's own output) passes through as it is.
 */
export function translate(lang: TLanguage, key: string, params: TMessageParams = {}): string {
  let node: string | TCatalog | undefined = catalogs[lang];
  for (const part of key.split('.')) {
    if (typeof node !== 'object') return key;
    node = node[part];
  }
  if (typeof node !== 'string') return key;
  return interpolate(node, params);
}

export const sharedCatalogs = catalogs;
