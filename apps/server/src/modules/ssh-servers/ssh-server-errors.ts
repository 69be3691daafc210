import type { TKeyProblem } from '../../deploy/ssh';
import { AppError, KeyedAppError } from '../../lib/app-error';

const KEY_PROBLEM_KEYS: Record<TKeyProblem, string> = {
  too_large: 'sshKey.tooLarge',
  public_key: 'sshKey.publicKey',
  passphrase_required: 'sshKey.passphraseRequired',
  wrong_passphrase: 'sshKey.wrongPassphrase',
  passphrase_not_needed: 'sshKey.passphraseNotNeeded',
  dsa: 'sshKey.dsa',
  unsupported_type: 'sshKey.unsupportedType',
  unreadable: 'sshKey.unreadable',
};

export const sshServerErrors = {
  notFound: () => new AppError('not_found', 404),
  inUse: (count: number) =>
    new KeyedAppError('ssh_server_in_use', 409, 'errors.sshServerInUse', { count }),
  /** A pasted key refused before anything is stored; the code names the problem for clients. */
  badKey: (problem: TKeyProblem) =>
    new KeyedAppError(`ssh_key_${problem}`, 400, KEY_PROBLEM_KEYS[problem]),
};
