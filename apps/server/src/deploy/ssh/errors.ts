/**
 * Every SSH failure becomes one SshError with a code the engine maps to a plain-words log line
 * ("which step failed and what to check"). Messages never contain a password or key.
 */
export type TSshErrorCode =
  | 'tcp_connect'
  | 'timeout'
  | 'host_key_mismatch'
  | 'auth_failed'
  | 'invalid_key'
  | 'sudo_refused'
  | 'connection_lost'
  | 'protocol';

export class SshError extends Error {
  constructor(
    readonly code: TSshErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SshError';
  }
}

export class HostKeyMismatchError extends SshError {
  constructor(
    readonly expectedFingerprint: string,
    readonly actualFingerprint: string,
    address: string,
  ) {
    super(
      'host_key_mismatch',
      `The SSH host key of ${address} changed: expected ${expectedFingerprint}, the server presented ${actualFingerprint}. If the server was reinstalled, re-pin its key; otherwise someone may be intercepting the connection.`,
    );
    this.name = 'HostKeyMismatchError';
  }
}

export class SudoRefusedError extends SshError {
  constructor(
    message: string,
    /** What sudo printed (never contains the password: sudo does not echo it). */
    readonly sudoOutput: string,
  ) {
    super('sudo_refused', message);
    this.name = 'SudoRefusedError';
  }
}
