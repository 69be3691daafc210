import type { FieldError } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import {
  applyServerIssues,
  errorDescription,
  errorText,
  fieldErrorText,
  reasonText,
  SERVER_ERROR_TYPE,
} from './form-errors';

const t = ((key: string) => `t(${key})`) as never;

function collect() {
  const placed: Record<string, FieldError> = {};
  const setError = ((name: string, error: FieldError) => {
    placed[name] = error;
  }) as never;
  return { placed, setError };
}

describe('server errors on form fields', () => {
  it('places each issue on its field and ignores unknown paths', () => {
    const { placed, setError } = collect();
    const error = new ApiError(400, '400: …', {
      statusCode: 400,
      code: 'invalid_request',
      message: 'Revisa los campos',
      issues: [
        { path: 'email', message: 'Correo no válido' },
        { path: 'role', message: 'ignored' },
      ],
    });
    expect(applyServerIssues(error, setError, ['username', 'email'])).toBe(1);
    expect(placed).toEqual({ email: { type: SERVER_ERROR_TYPE, message: 'Correo no válido' } });
  });

  it('places an error whose code names a field on that field', () => {
    const { placed, setError } = collect();
    const error = new ApiError(409, '409: …', {
      statusCode: 409,
      code: 'email_taken',
      message: 'An account with that e-mail already exists',
    });
    applyServerIssues(error, setError, ['email'], { email_taken: 'email' });
    expect(placed.email?.message).toBe('An account with that e-mail already exists');
  });

  it('shows server messages as they are and translates zod keys', () => {
    expect(fieldErrorText({ type: SERVER_ERROR_TYPE, message: 'Ya existe: sí' }, t)).toBe(
      'Ya existe: sí',
    );
    expect(fieldErrorText({ type: 'too_small', message: 'validation.username.min' }, t)).toBe(
      't(validation.username.min)',
    );
  });

  it('describes a failure by the server message, a network error, or the fallback', () => {
    const withBody = new ApiError(401, '401: …', {
      statusCode: 401,
      code: 'invalid_credentials',
      message: 'Credenciales no válidas',
    });
    expect(errorDescription(withBody, t, 'fallback')).toBe('Credenciales no válidas');
    expect(errorDescription(new ApiError(502, '502: Bad Gateway'), t, 'fallback')).toBe('fallback');
    expect(errorDescription(new TypeError('Failed to fetch'), t, 'fallback')).toBe(
      't(errors.network)',
    );
  });

  it('keeps the same choice as a text for a line shown again in another language', () => {
    const refused = new ApiError(409, '409: …', {
      statusCode: 409,
      code: 'deployment_running',
      message: 'Ya hay un despliegue en curso',
    });
    const fallback = { key: 'wizard.deploy.unknownError' };
    expect(errorText(refused, fallback)).toBe('Ya hay un despliegue en curso');
    expect(errorText(new ApiError(502, '502: Bad Gateway'), fallback)).toBe(fallback);
    expect(errorText(new TypeError('Failed to fetch'), fallback)).toEqual({
      key: 'errors.network',
    });
  });

  it("keeps the server's key and values when it sent them, so the words follow the language", () => {
    const limited = new ApiError(429, '429: …', {
      statusCode: 429,
      code: 'rate_limited',
      message: 'Demasiados intentos. Espera 30 segundos y vuelve a intentarlo.',
      text: { key: 'errors.rateLimited', params: { seconds: 30 } },
    });
    expect(reasonText(limited)).toEqual({ key: 'errors.rateLimited', params: { seconds: 30 } });
    expect(errorText(limited, { key: 'wizard.deploy.unknownError' })).toEqual({
      key: 'errors.rateLimited',
      params: { seconds: 30 },
    });
  });
});
