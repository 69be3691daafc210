import { SERVER_VARIANTS, type TServerVariant } from './types';

/**
 * Parses variant choices as the CLI and PORTICO_LAB_VARIANTS write them: `V` applies to every
 * server, `sN=V1,V2` to one.
 */
export function parseVariants(items: string[]): Record<string, TServerVariant[]> {
  const result: Record<string, TServerVariant[]> = {};
  for (const item of items.filter(Boolean)) {
    const [target, list] = item.includes('=') ? item.split('=', 2) : ['*', item];
    const key = target ?? '*';
    if (key !== '*' && !/^s\d+$/.test(key)) throw new Error(`bad server name ${key}`);
    for (const variant of (list ?? '').split(',')) {
      if (!(SERVER_VARIANTS as readonly string[]).includes(variant)) {
        throw new Error(`unknown variant ${variant}; known: ${SERVER_VARIANTS.join(', ')}`);
      }
      result[key] = [...(result[key] ?? []), variant as TServerVariant];
    }
  }
  return result;
}
