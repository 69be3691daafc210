import type { TApiError, TLanguage } from '@portico/shared/api-error';
import { translate } from '@portico/shared/i18n/translate';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, ERROR_MESSAGE_KEYS, FieldsAppError, RetryLaterError } from '../lib/app-error';

const CSRF_CODES = new Set(['FST_CSRF_MISSING_SECRET', 'FST_CSRF_INVALID_TOKEN']);

const STATUS_CODES: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  429: 'rate_limited',
};

function translateIssue(lang: TLanguage, message: string): string {
  // Schema messages are catalog keys; anything else (zod's own English) gets the generic text.
  const text = translate(lang, message);
  return text === message ? translate(lang, 'validation.invalidRequest') : text;
}

/** Maps anything thrown into an AppError plus, for validation, its translated issues. */
function normalize(error: unknown, lang: TLanguage) {
  if (error instanceof FieldsAppError) {
    const issues = error.fieldIssues.map((i) => ({
      path: i.path,
      message: translate(lang, i.key),
    }));
    return { appError: error, issues };
  }
  if (error instanceof AppError) return { appError: error, issues: undefined };
  const e = error as FastifyError;
  if (hasZodFastifySchemaValidationErrors(e)) {
    const issues = e.validation.map((v) => ({
      path: v.instancePath.replace(/^\//, '').replaceAll('/', '.'),
      message: translateIssue(lang, v.message ?? ''),
    }));
    return { appError: new AppError('validation_failed', 400), issues };
  }
  if (CSRF_CODES.has(e.code)) return { appError: new AppError('csrf_invalid', 403), issues: [] };
  const status = typeof e.statusCode === 'number' ? e.statusCode : 500;
  if (status >= 400 && status < 500) {
    return { appError: new AppError(STATUS_CODES[status] ?? 'bad_request', status), issues: [] };
  }
  return { appError: new AppError('internal', 500), issues: undefined };
}

export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  appError: AppError,
  issues?: TApiError['issues'],
) {
  const lang = request.language;
  const { messageKey: key, params } = appError;
  const body: TApiError = {
    statusCode: appError.statusCode,
    code: appError.code,
    message: translate(lang, key, params),
    text: Object.keys(params).length > 0 ? { key, params } : { key },
  };
  if (issues && issues.length > 0) body.issues = issues;
  if (appError instanceof RetryLaterError) {
    const seconds = Math.ceil((appError.retryAt.getTime() - Date.now()) / 1000);
    reply.header('retry-after', String(Math.max(1, seconds)));
  }
  return reply.code(appError.statusCode).type('application/json; charset=utf-8').send(body);
}

async function errorsPlugin(app: FastifyInstance) {
  app.setErrorHandler((error, request, reply) => {
    const { appError, issues } = normalize(error, request.language);
    if (appError.statusCode >= 500) {
      // Full detail goes to the log only; the caller gets the generic text.
      request.log.error({ err: error }, 'request failed');
    }
    return sendError(request, reply, appError, issues);
  });
}

export const errors = fp(errorsPlugin, {
  name: 'portico-errors',
  dependencies: ['portico-language'],
});
export { ERROR_MESSAGE_KEYS };
