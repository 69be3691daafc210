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
  /** Key login: the server did not accept this key (not in authorized_keys, or keys disabled). */
  | 'key_refused'
  /** The stored key's passphrase does not open it. */
  | 'key_passphrase'
  | 'sudo_refused'
  | 'connection_lost'
  /** The server ended the connection before the login finished (banner, key exchange, auth). */
  | 'closed_by_server'
  | 'protocol';

/**
 * The same sentence as a catalog key (under `deployLog.ssh.`) and its values, so the engine can
 * tell the user in their own language; `message` stays English for Portico's own log.
 */
export interface TSshErrorText {
  key: string;
  params?: Record<string, string | number>;
}

export class SshError extends Error {
  constructor(
    readonly code: TSshErrorCode,
    message: string,
    options?: { cause?: unknown; text?: TSshErrorText },
  ) {
    super(message, options);
    this.name = 'SshError';
    this.text = options?.text;
  }

  readonly text: TSshErrorText | undefined;
}

/**
 * A command stopped at its time limit. `stdout` is what it had printed by then: never shown as it
 * is (a script may print what must stay on the server, a file's previous bytes among them), only
 * read by the caller that knows the script's marked lines, to say how far it got and what to put
 * back. A getter over a private field, so that no serializer of the error (the log's, JSON's)
 * writes it out.
 */
export class CommandTimeoutError extends SshError {
  readonly #stdout: string;

  constructor(
    readonly limitMs: number,
    stdout: string,
  ) {
    super('timeout', `The command did not finish within ${limitMs} ms.`, {
      text: { key: 'commandTimeout', params: { seconds: limitMs / 1000 } },
    });
    this.#stdout = stdout;
  }

  get stdout(): string {
    return this.#stdout;
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
      `The SSH host key of ${address} changed: expected ${expectedFingerprint}, the server presented ${actualFingerprint}. If the server was reinstalled, compare the new key with ssh-keygen -lf on the server, then choose "Forget host key" on the proxy's details page; otherwise someone may be intercepting the connection.`,
      {
        text: {
          key: 'hostKeyChanged',
          params: { address, expected: expectedFingerprint, actual: actualFingerprint },
        },
      },
    );
    this.name = 'HostKeyMismatchError';
  }
}

export class SudoRefusedError extends SshError {
  constructor(
    message: string,
    /** What sudo printed (never contains the password: sudo does not echo it). */
    readonly sudoOutput: string,
    text?: TSshErrorText,
  ) {
    super('sudo_refused', message, { text });
    this.name = 'SudoRefusedError';
  }
}
