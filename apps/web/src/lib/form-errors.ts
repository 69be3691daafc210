import type { TText } from '@portico/shared/i18n/text';
import type { TFunction } from 'i18next';
import type { FieldError, FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from './api-client';

/** Marks an error whose message is already translated text (from the server), not a key. */
export const SERVER_ERROR_TYPE = 'server';

/** Zod messages are catalog keys; server messages arrive translated and are shown as they are. */
export function fieldErrorText(error: FieldError | undefined, t: TFunction): string | undefined {
  if (!error?.message) return undefined;
  return error.type === SERVER_ERROR_TYPE ? error.message : t(error.message);
}

/**
 * Puts the server's per-field issues on the form's fields, and an error whose code names one
 * field (e.g. username_taken) on that field; returns how many were placed.
 */
export function applyServerIssues<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
  fieldByCode: Partial<Record<string, Path<T>>> = {},
): number {
  if (!(error instanceof ApiError) || !error.body) return 0;
  const codeField = fieldByCode[error.body.code];
  if (codeField) setError(codeField, { type: SERVER_ERROR_TYPE, message: error.body.message });
  let placed = codeField ? 1 : 0;
  for (const issue of error.body.issues ?? []) {
    const field = fields.find((f) => f === issue.path);
    if (!field) continue;
    setError(field, { type: SERVER_ERROR_TYPE, message: issue.message });
    placed += 1;
  }
  return placed;
}

/**
 * Why a call failed, when that is known: the server's message (already in the user's language)
 * when it sent one, the network text when no answer came; null otherwise.
 */
export function knownReason(error: unknown, t: TFunction): string | null {
  if (error instanceof ApiError) return error.body?.message ?? null;
  if (error instanceof TypeError) return t('errors.network');
  return null;
}

/** Why a call failed, in words: the known reason, else `fallback` (the generic text). */
export function errorDescription(
  error: unknown,
  t: TFunction,
  fallback: string = t('errors.general'),
): string {
  return knownReason(error, t) ?? fallback;
}

/**
 * `knownReason` kept as a text for what is rendered again when the language changes (a check's
 * failure, a line of the deployment log): the server's sentence as its key and values (verbatim
 * from a server that sent only the words), or the network text as a catalog key; null otherwise.
 */
export function reasonText(error: unknown): TText | null {
  if (error instanceof ApiError) return error.body?.text ?? error.body?.message ?? null;
  if (error instanceof TypeError) return { key: 'errors.network' };
  return null;
}

/** The same choice as `errorDescription`, as a text: the known reason, else `fallback`. */
export function errorText(error: unknown, fallback: TText): TText {
  return reasonText(error) ?? fallback;
}
