import type { TKeyProblem } from '../../deploy/ssh';
import { AppError, KeyedAppError } from '../../lib/app-error';

const KEY_PROBLEM_KEYS: Record<TKeyProblem, string> = {
  too_large: 'validation.sshKey.tooLarge',
  public_key: 'validation.sshKey.publicKey',
  passphrase_required: 'validation.sshKey.passphraseRequired',
  wrong_passphrase: 'validation.sshKey.wrongPassphrase',
  passphrase_not_needed: 'validation.sshKey.passphraseNotNeeded',
  dsa: 'validation.sshKey.dsa',
  unsupported_type: 'validation.sshKey.unsupportedType',
  unreadable: 'validation.sshKey.unreadable',
};

export const sshServerErrors = {
  notFound: () => new AppError('not_found', 404),
  inUse: (count: number) =>
    new KeyedAppError('ssh_server_in_use', 409, 'errors.sshServerInUse', { count }),
  /** A pasted key refused before anything is stored; the code names the problem for clients. */
  badKey: (problem: TKeyProblem) =>
    new KeyedAppError(`ssh_key_${problem}`, 400, KEY_PROBLEM_KEYS[problem]),
};
