import { SshError } from '../ssh';
import { DeployValidationError } from '../validate';
import type { TDeployFailure, TDeployFailureCode } from './types';

/** The last lines of a tool's output, enough to carry its reason without flooding the log. */
const MAX_OUTPUT_LINES = 40;

/** A step failed for a reason the user can act on; `message` already holds the tool's output. */
export class StepError extends Error {
  constructor(
    readonly code: TDeployFailureCode,
    readonly step: string,
    message: string,
  ) {
    super(message);
    this.name = 'StepError';
  }
}

/** `plain` followed by the tool's own output (trimmed to its last lines), when there is any. */
export function withOutput(plain: string, output: string | undefined): string {
  const lines = (output ?? '')
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '');
  if (lines.length === 0) return plain;
  const kept = lines.slice(-MAX_OUTPUT_LINES);
  const cut = lines.length > kept.length ? ['…'] : [];
  return [plain, ...cut, ...kept].join('\n');
}

/** ssh2's SFTP client reading a login script's text as a packet header. */
const SFTP_GARBLED = /Packet length \d+ exceeds max length/;

const SSH_HINTS: Partial<Record<SshError['code'], string>> = {
  tcp_connect: 'Check the server address, the SSH port and any firewall in between.',
  timeout: 'Check that the server is up and not overloaded, then try again.',
  auth_failed: 'Check the SSH user name and password (or key).',
  invalid_key: 'Check the private key and its passphrase.',
  connection_lost: 'The server or the network dropped the connection; try again.',
};

function fromSsh(error: SshError, step: string): TDeployFailure {
  const code: TDeployFailureCode =
    error.code === 'invalid_key'
      ? 'auth_failed'
      : error.code === 'protocol'
        ? 'internal'
        : error.code;
  const hint = SSH_HINTS[error.code];
  const output = 'sudoOutput' in error ? String(error.sudoOutput) : undefined;
  const message = withOutput(hint ? `${error.message} ${hint}` : error.message, output);
  return { code, step, message };
}

/** Maps anything a step threw to the contract's failure shape. */
export function toFailure(error: unknown, step: string, signal?: AbortSignal): TDeployFailure {
  if (signal?.aborted) {
    return { code: 'cancelled', step, message: `The deployment was cancelled during ${step}.` };
  }
  if (error instanceof StepError) {
    return { code: error.code, step: error.step, message: error.message };
  }
  if (error instanceof SshError) return fromSsh(error, step);
  if (error instanceof DeployValidationError) {
    return {
      code: 'invalid_input',
      step,
      message: `The ${error.field} is not valid: it ${error.reason}.`,
    };
  }
  const reason = error instanceof Error ? error.message : String(error);
  if (SFTP_GARBLED.test(reason)) {
    return {
      code: 'internal',
      step,
      message: `Copying a file to the server (SFTP) failed because a login script of the SSH user prints text even in non-interactive sessions (for example an echo in ~/.bashrc or /etc/bash.bashrc), which corrupts file transfers. Make it print only in interactive shells (put \`case $- in *i*) ;; *) return ;; esac\` at its top), then deploy again. SSH said: ${reason}`,
    };
  }
  return { code: 'internal', step, message: `Unexpected error during ${step}: ${reason}` };
}
