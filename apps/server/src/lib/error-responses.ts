import { ZApiError } from '@portico/shared/api-error';

type TErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 429 | 500 | 502 | 503;

/**
 * A route's error answers for its schema: each listed status is the one error body (code,
 * translated message, issues). Listed, not blanket, so the API docs name what a route can answer.
 */
export function errorResponses<const S extends TErrorStatus[]>(
  ...statuses: S
): Record<S[number], typeof ZApiError> {
  return Object.fromEntries(statuses.map((status) => [status, ZApiError])) as Record<
    S[number],
    typeof ZApiError
  >;
}
