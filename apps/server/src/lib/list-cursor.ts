import { KeyedAppError } from './app-error';

// A page's cursor: the sort's name and the last row's sort key, as base64url JSON. Opaque to
// clients; the next page starts strictly after that key, so rows inserted meanwhile neither
// repeat nor push any row out of the walk.

export function encodeCursor(sort: string, key: readonly string[]): string {
  return Buffer.from(JSON.stringify([sort, ...key])).toString('base64url');
}

const badCursor = () => new KeyedAppError('bad_cursor', 400, 'validation.list.cursor');

/**
 * The key a cursor made by `encodeCursor(sort, …)` holds, each part checked by its pattern; a
 * cursor of another sort or shape is refused with a 400 in the reader's language.
 */
export function decodeCursor(cursor: string, sort: string, patterns: readonly RegExp[]): string[] {
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badCursor();
  }
  if (!Array.isArray(parts) || parts.length !== patterns.length + 1 || parts[0] !== sort) {
    throw badCursor();
  }
  const key = parts.slice(1);
  if (!key.every((part, i) => typeof part === 'string' && patterns[i]!.test(part))) {
    throw badCursor();
  }
  return key as string[];
}

/** A timestamp as PostgreSQL writes `timestamptz::text`, or `infinity`. */
export const TIMESTAMP_TEXT =
  /^(infinity|\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{1,6})?[+-]\d\d(:\d\d)?)$/;
export const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Any text up to a username's length, for keys that are user values. */
export const SHORT_TEXT = /^[\s\S]{0,320}$/;

/** `%`, `_` and `\` matched as themselves in a LIKE pattern (the default escape is `\`). */
export function likeContaining(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
