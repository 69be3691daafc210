import type { TSshAuth } from '../../deploy/engine';
import { KeyedAppError } from '../../lib/app-error';

/** Why no credential is presented: one list for every caller, worded in one table below. */
export type TCredentialRefusal =
  /** Nothing saved for this target (`savedElsewhere`: a secret exists, entered for another). */
  | { reason: 'no_credential'; target: string; savedElsewhere: boolean }
  | { reason: 'undecryptable' }
  | { reason: 'key_unreadable' }
  | { reason: 'unusable' };

export type TCredential = { auth: TSshAuth } | { refused: TCredentialRefusal };

/** Who asks: the SSH test asks for a password, a deploy start and a removal name the target. */
export type TCredentialSurface = 'test' | 'deploy' | 'remove';

/**
 * The API error of a refusal. The codes stay those clients already act on (the web offers
 * "delete from Portico only" on remove_needs_password); the deploy log words the same reasons
 * as its lines (deploy-job.ts `refusalLine`).
 */
export function credentialRefusalError(
  refusal: TCredentialRefusal,
  surface: TCredentialSurface,
): KeyedAppError {
  switch (refusal.reason) {
    case 'no_credential':
      if (surface === 'remove') {
        return new KeyedAppError('remove_needs_password', 400, 'errors.removeNeedsPassword', {
          target: refusal.target,
        });
      }
      if (surface === 'deploy') {
        return new KeyedAppError('deploy_needs_password', 400, 'errors.deployNeedsPassword');
      }
      return new KeyedAppError('password_required', 400, 'checks.ssh.passwordRequired');
    case 'undecryptable':
      return new KeyedAppError('secret_key_unreadable', 500, 'errors.secretUndecryptable');
    case 'key_unreadable':
      return new KeyedAppError('secret_key_unreadable', 500, 'errors.secretKeyUnreadable');
    case 'unusable':
      return new KeyedAppError('password_required', 400, 'checks.ssh.storedPasswordUnusable');
  }
}
