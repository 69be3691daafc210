import type { TMessageParams } from '@portico/shared/i18n/translate';
import { KeyedAppError } from '../../lib/app-error';

/** The one keyed error (lib/app-error.ts), by the name the checks and scripts use. */
export { KeyedAppError as KeyedError };

/** A message for the caller, translated by the route into the request's language. */
export interface TMessage {
  key: string;
  params?: TMessageParams;
}
