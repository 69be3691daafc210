/**
 * The value when it is an absolute http(s) URL, else undefined: stored data must never become a
 * `javascript:` or `data:` link or image source, whatever wrote it.
 */
export function httpUrlOrUndefined(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}
