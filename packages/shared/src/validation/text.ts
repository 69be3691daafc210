import { z } from 'zod';
import { hasControlCharacter, trimSpaces } from './rules';

/**
 * The start of every text field the forms and the API take: a string holding no control or
 * line-break character anywhere (refused with its own message, before any other rule), with
 * plain spaces at either end removed. Anything else a value carries is judged by the field's
 * own allowlist, never quietly trimmed away.
 */
export function ZCleanString(requiredKey = 'validation.required') {
  return z
    .string({ error: requiredKey })
    .refine((v) => !hasControlCharacter(v), {
      message: 'validation.controlCharacter',
      abort: true,
    })
    .overwrite(trimSpaces);
}
