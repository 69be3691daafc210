import type { TMessageParams } from '@portico/shared/i18n/translate';
import { AppError } from '../../lib/app-error';

/**
 * An AppError carrying its own catalog key, for refusals whose text is specific to one endpoint
 * (the shared code→key table in lib/app-error.ts stays for the generic ones).
 */
export class KeyedError extends AppError {
  constructor(
    code: string,
    statusCode: number,
    private readonly key: string,
    params: TMessageParams = {},
  ) {
    super(code, statusCode, params);
    this.name = 'KeyedError';
  }

  override get messageKey(): string {
    return this.key;
  }
}

/** A message for the caller, translated by the route into the request's language. */
export interface TMessage {
  key: string;
  params?: TMessageParams;
}
