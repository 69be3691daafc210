import type { TLanguage } from '@portico/shared/api-error';
import { renderText, type TText } from '@portico/shared/i18n/text';
import { deadlineOf, formatLimit } from '../../lib/deadline';
import { SshError } from '../ssh';
import { DeployValidationError } from '../validate';
import { msg } from './messages';
import { LOCK_LOST, type TDeployFailure, type TDeployFailureCode } from './types';

/** The last lines of a tool's output, enough to carry its reason without flooding the log. */
const MAX_OUTPUT_LINES = 40;
/** …and at most this many characters of them (a log line is cut at 2000). */
const MAX_OUTPUT_CHARS = 1800;

/** A step failed for a reason the user can act on; `text` already holds the tool's output. */
export class StepError extends Error {
  constructor(
    readonly code: TDeployFailureCode,
    readonly step: string,
    readonly text: TText,
  ) {
    super(renderText('en', text));
    this.name = 'StepError';
  }
}

/** `plain` followed by the tool's own output (trimmed to its last lines), when there is any. */
export function withOutput(plain: TText, output: string | undefined): TText {
  const lines = (output ?? '')
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '');
  if (lines.length === 0) return plain;
  const kept = lines.slice(-MAX_OUTPUT_LINES);
  let tail = kept.join('\n');
  const cut = lines.length > kept.length || tail.length > MAX_OUTPUT_CHARS;
  if (tail.length > MAX_OUTPUT_CHARS) tail = tail.slice(-MAX_OUTPUT_CHARS);
  return { join: cut ? [plain, '…', tail] : [plain, tail], sep: '\n' };
}

/** ssh2's SFTP client reading a login script's text as a packet header. */
const SFTP_GARBLED = /Packet length \d+ exceeds max length/;

const SSH_HINTS: Partial<Record<SshError['code'], string>> = {
  tcp_connect: 'failure.hintTcpConnect',
  timeout: 'failure.hintTimeout',
  auth_failed: 'failure.hintAuthFailed',
  invalid_key: 'failure.hintInvalidKey',
  connection_lost: 'failure.hintConnectionLost',
  closed_by_server: 'failure.hintClosedByServer',
};

function fromSsh(error: SshError): { code: TDeployFailureCode; text: TText } {
  const code: TDeployFailureCode =
    // The words tell a refused key from a wrong passphrase; the code stays the login's.
    error.code === 'invalid_key' || error.code === 'key_refused' || error.code === 'key_passphrase'
      ? 'auth_failed'
      : error.code === 'protocol'
        ? 'internal'
        : error.code === 'closed_by_server'
          ? 'connection_lost'
          : error.code;
  const hintKey = SSH_HINTS[error.code];
  const output = 'sudoOutput' in error ? String(error.sudoOutput) : undefined;
  const said = error.text ? msg(`ssh.${error.text.key}`, error.text.params) : error.message;
  const text = withOutput(hintKey ? { join: [said, msg(hintKey)], sep: ' ' } : said, output);
  return { code, text };
}

/** A step stopped at its time limit of `ms` (the work on the server did not finish in it). */
export function deadlineFailure(
  step: string,
  ms: number,
): { code: 'timeout'; step: string; text: TText } {
  return { code: 'timeout', step, text: msg('failure.deadline', { step, limit: formatLimit(ms) }) };
}

function failureText(
  error: unknown,
  step: string,
  signal?: AbortSignal,
): { code: TDeployFailureCode; step: string; text: TText } {
  const limit = deadlineOf(signal);
  if (limit) return deadlineFailure(step, limit.ms);
  if (signal?.aborted && signal.reason === LOCK_LOST) {
    return { code: 'cancelled', step, text: msg('failure.lockLost', { step }) };
  }
  if (signal?.aborted) {
    return { code: 'cancelled', step, text: msg('failure.cancelledDuring', { step }) };
  }
  if (error instanceof StepError) return { code: error.code, step: error.step, text: error.text };
  if (error instanceof SshError) return { ...fromSsh(error), step };
  if (error instanceof DeployValidationError) {
    return {
      code: 'invalid_input',
      step,
      text: msg('failure.invalidInput', {
        field: msg(`field.${error.field.replace('.', '_')}`),
        reason: msg(`invalid.${error.reason}`, error.params),
      }),
    };
  }
  const reason = error instanceof Error ? error.message : String(error);
  if (SFTP_GARBLED.test(reason)) {
    return { code: 'internal', step, text: msg('failure.sftpGarbled', { reason }) };
  }
  return { code: 'internal', step, text: msg('failure.unexpected', { step, reason }) };
}

/** Maps anything a step threw to the contract's failure shape, its words in the run's language. */
export function toFailure(
  error: unknown,
  step: string,
  from: { lang: TLanguage } | TLanguage,
  signal?: AbortSignal,
): TDeployFailure {
  const lang = typeof from === 'string' ? from : from.lang;
  const failure = failureText(error, step, signal);
  return { ...failure, message: renderText(lang, failure.text) };
}
