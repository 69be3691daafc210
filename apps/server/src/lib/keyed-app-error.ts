import type { TMessageParams } from '@portico/shared/i18n/translate';
import { AppError } from './app-error';

/** An AppError whose catalog key is given here, for codes the shared table does not list. */
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
