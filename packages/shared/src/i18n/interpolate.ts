export type TMessageParams = Record<string, string | number>;

/**
 * {{name}} replaced by its value, once: a value is never read as a template itself. Holds no
 * catalog, so the web can fill its own texts without downloading the shared ones.
 */
export function interpolate(template: string, params: TMessageParams = {}): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name] ?? ''));
}
