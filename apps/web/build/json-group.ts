import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';

const QUERY = /^(group|without)=(\w+(?:,\w+)*)$/;

export type TJsonObject = Record<string, unknown>;

/**
 * The part of a catalog a `?group=name` or `?without=a,b` import asks for: that top-level group
 * alone, or every group but those named. Throws on a group the catalog does not have, so a
 * renamed group fails the build instead of loading nothing.
 */
export function pickGroup(catalog: TJsonObject, query: string): TJsonObject | null {
  const match = QUERY.exec(query);
  if (!match) return null;
  const [, how, list] = match as unknown as [string, 'group' | 'without', string];
  const names = list.split(',');
  for (const name of names) {
    const group = catalog[name];
    if (typeof group !== 'object' || group === null) throw new Error(`no group "${name}"`);
  }
  if (how === 'group') {
    if (names.length !== 1) throw new Error(`?group= takes one group, not "${list}"`);
    return catalog[list] as TJsonObject;
  }
  return Object.fromEntries(Object.entries(catalog).filter(([name]) => !names.includes(name)));
}

/**
 * `import texts from './en.json?group=certificate'` (or `?without=certificate`): one file, two
 * modules. A module sits in one chunk only, so a group one screen loads later cannot be left
 * out of the landing page's catalog through named imports of the same file; as two modules of
 * their own, each goes with whoever imports it (as a default export: the bundler's JSON handling
 * skips ids with a query).
 */
export function jsonGroup(): Plugin {
  return {
    name: 'portico:json-group',
    enforce: 'pre',
    load(id) {
      const [file, query] = id.split('?');
      if (!file?.endsWith('.json') || !query) return null;
      const catalog = JSON.parse(readFileSync(file, 'utf8')) as TJsonObject;
      const picked = pickGroup(catalog, query);
      if (!picked) return null;
      this.addWatchFile(file);
      return `export default ${JSON.stringify(picked)};`;
    },
  };
}
