import { isManualDestination } from '@portico/shared/validation/rules';

type TManualDestinationCheck =
  | { state: 'empty' }
  | { state: 'valid'; messageKey: 'validation.target.valid' }
  | { state: 'invalid'; messageKey: 'validation.target.invalid' };

/** Manual destination: live message for the free-text endpoint. */
export function checkManualDestination(value: string): TManualDestinationCheck {
  if (value.trim() === '') return { state: 'empty' };
  return isManualDestination(value)
    ? { state: 'valid', messageKey: 'validation.target.valid' }
    : { state: 'invalid', messageKey: 'validation.target.invalid' };
}
