import type { TMessageParams } from '@portico/shared/i18n/translate';

/** Catalog key of the message each error code shows; an unlisted code shows errors.general. */
export const ERROR_MESSAGE_KEYS: Record<string, string> = {
  bad_request: 'validation.invalidRequest',
  validation_failed: 'validation.invalidRequest',
  unauthenticated: 'errors.unauthenticated',
  forbidden: 'errors.unauthorized',
  not_found: 'errors.notFound',
  conflict: 'errors.conflict',
  payload_too_large: 'errors.payloadTooLarge',
  rate_limited: 'errors.rateLimited',
  csrf_invalid: 'errors.csrf',
  invalid_credentials: 'errors.invalidCredentials',
  registration_closed: 'errors.registrationClosed',
  username_taken: 'errors.usernameTaken',
  email_taken: 'errors.emailTaken',
  internal: 'errors.serverError',
  // Accounts: API tokens, two-factor sign-in, the settings page.
  invalid_token: 'errors.tokenInvalid',
  token_scope: 'errors.tokenScope',
  token_session_only: 'errors.tokenSessionOnly',
  two_factor_setup_required: 'errors.twoFactorSetupRequired',
  two_factor_invalid: 'errors.twoFactorInvalid',
  two_factor_expired: 'errors.twoFactorExpired',
  two_factor_on: 'errors.twoFactorOn',
  two_factor_off: 'errors.twoFactorOff',
  two_factor_not_started: 'errors.twoFactorNotStarted',
  two_factor_secret_unreadable: 'errors.twoFactorSecretUnreadable',
  wrong_password: 'errors.wrongPassword',
  session_current: 'errors.sessionCurrent',
  // Certificates and their alerts.
  webhook_forbidden: 'errors.webhookForbidden',
  webhook_private: 'errors.webhookPrivate',
  webhook_unresolved: 'errors.webhookUnresolved',
  test_send_limited: 'errors.testSendLimited',
  email_unavailable: 'errors.emailUnavailable',
  email_already_verified: 'errors.emailAlreadyVerified',
  email_code_limited: 'errors.emailCodeLimited',
  email_code_not_sent: 'errors.emailCodeNotSent',
  email_code_invalid: 'errors.emailCodeInvalid',
  email_code_expired: 'errors.emailCodeExpired',
  certificate_not_deployed: 'errors.certificateNotDeployed',
  certificate_needs_password: 'errors.certificateNeedsPassword',
};

/**
 * The one error type services throw. The error handler turns it into the ZApiError body with the
 * message translated into the caller's language.
 */
export class AppError extends Error {
  constructor(
    readonly code: string,
    readonly statusCode: number,
    readonly params: TMessageParams = {},
  ) {
    super(code);
    this.name = 'AppError';
  }

  get messageKey(): string {
    return ERROR_MESSAGE_KEYS[this.code] ?? 'errors.general';
  }
}

/** A message for the caller, translated by the route into the request's language. */
export interface TMessage {
  key: string;
  params?: TMessageParams;
}

/**
 * An AppError carrying its own catalog key, for refusals whose text is specific to one endpoint
 * or one case (the code→key table above stays for the generic ones).
 */
export class KeyedAppError extends AppError {
  constructor(
    code: string,
    statusCode: number,
    readonly key: string,
    params: TMessageParams = {},
  ) {
    super(code, statusCode, params);
  }

  override get messageKey(): string {
    return this.key;
  }
}

/**
 * A limit reached: the message comes from `key` (with `params`), and the answer also carries
 * Retry-After, the seconds until `retryAt`, for clients that wait on their own.
 */
export class RetryLaterError extends KeyedAppError {
  constructor(
    code: string,
    key: string,
    readonly retryAt: Date,
    params: TMessageParams = {},
  ) {
    super(code, 429, key, params);
    this.name = 'RetryLaterError';
  }
}

/**
 * A refusal of particular fields the schema could not judge alone (it needs the stored row or
 * the instance's settings): answered like a schema's refusal, a 400 with the fields' issues.
 */
export class FieldsAppError extends AppError {
  constructor(readonly fieldIssues: { path: string; key: string }[]) {
    super('validation_failed', 400);
  }
}
