import type { TLanguage } from '@portico/shared/api-error';
import { SshError } from '../ssh';
import { DeployValidationError } from '../validate';
import { say } from './messages';
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
  tcp_connect: 'failure.hintTcpConnect',
  timeout: 'failure.hintTimeout',
  auth_failed: 'failure.hintAuthFailed',
  invalid_key: 'failure.hintInvalidKey',
  connection_lost: 'failure.hintConnectionLost',
};

function fromSsh(error: SshError, step: string, lang: TLanguage): TDeployFailure {
  const code: TDeployFailureCode =
    error.code === 'invalid_key'
      ? 'auth_failed'
      : error.code === 'protocol'
        ? 'internal'
        : error.code;
  const hintKey = SSH_HINTS[error.code];
  const hint = hintKey ? say(lang, hintKey) : undefined;
  const output = 'sudoOutput' in error ? String(error.sudoOutput) : undefined;
  const said = error.text ? say(lang, `ssh.${error.text.key}`, error.text.params) : error.message;
  const message = withOutput(hint ? `${said} ${hint}` : said, output);
  return { code, step, message };
}

/** Maps anything a step threw to the contract's failure shape, in the run's language. */
export function toFailure(
  error: unknown,
  step: string,
  from: { lang: TLanguage } | TLanguage,
  signal?: AbortSignal,
): TDeployFailure {
  const lang = typeof from === 'string' ? from : from.lang;
  if (signal?.aborted) {
    return { code: 'cancelled', step, message: say(lang, 'failure.cancelledDuring', { step }) };
  }
  if (error instanceof StepError) {
    return { code: error.code, step: error.step, message: error.message };
  }
  if (error instanceof SshError) return fromSsh(error, step, lang);
  if (error instanceof DeployValidationError) {
    return {
      code: 'invalid_input',
      step,
      message: say(lang, 'failure.invalidInput', {
        field: say(lang, `field.${error.field.replace('.', '_')}`),
        reason: say(lang, `invalid.${error.reason}`, error.params),
      }),
    };
  }
  const reason = error instanceof Error ? error.message : String(error);
  if (SFTP_GARBLED.test(reason)) {
    return {
      code: 'internal',
      step,
      message: say(lang, 'failure.sftpGarbled', { reason }),
    };
  }
  return { code: 'internal', step, message: say(lang, 'failure.unexpected', { step, reason }) };
}
