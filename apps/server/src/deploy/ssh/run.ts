import { randomBytes } from 'node:crypto';
import { StringDecoder } from 'node:string_decoder';
import type { Client, ClientChannel } from 'ssh2';
import { shellQuote, shellQuoteAll } from '../shell-quote';
import { CommandTimeoutError, SshError, SudoRefusedError } from './errors';

export interface TRunOptions {
  /** Values for $1, $2, … of the script, each quoted by shellQuote. */
  args?: readonly string[];
  /** Data for the script's standard input (the script text never travels on stdin). */
  stdin?: string | Buffer;
  /** Run as root: directly when logged in as root, else through sudo. */
  sudo?: boolean;
  onLine?(stream: 'stdout' | 'stderr', line: string): void;
  /** Kill the command and fail with code `timeout` after this long. */
  timeoutMs?: number;
}

export interface TRunResult {
  code: number;
  signal?: string;
  stdout: string;
  stderr: string;
}

export interface TIdentity {
  username: string;
  isRoot: boolean;
  password?: string;
}

/** Keeps the last MAX_KEPT characters of a stream; deploy output is rarely near this. */
const MAX_KEPT = 4 * 1024 * 1024;
/** Linux refuses a single argv string above 128 KiB; stay well under it. */
const MAX_SCRIPT = 100 * 1024;

/**
 * What runs the script: `timeout` (coreutils, on every Debian and RHEL) kills the script's whole
 * process group when it runs too long; an SSH "signal" request cannot do that here, because
 * ssh2 only sends one while the channel's input is still open. With sudo, the wrapper first
 * announces on stderr that sudo has let us through; until then, stderr belongs to sudo.
 */
const LAUNCH =
  'if [ "$t" = 0 ]; then exec bash -c "$s" portico "$@"; else exec timeout -s KILL "$t" bash -c "$s" portico "$@"; fi';
const DIRECT_WRAPPER = `t=$1 s=$2; shift 2; ${LAUNCH}`;
const SUDO_WRAPPER = `printf '\\n%s\\n' "$1" >&2; t=$2 s=$3; shift 3; ${LAUNCH}`;

class Lines {
  private readonly decoder = new StringDecoder('utf8');
  private pending = '';
  text = '';
  constructor(private readonly emit: (line: string) => void) {}

  push(chunk: Buffer): void {
    this.add(this.decoder.write(chunk));
  }

  add(s: string): void {
    if (!s) return;
    this.text = (this.text + s).slice(-MAX_KEPT);
    this.pending += s;
    for (let i = this.pending.indexOf('\n'); i !== -1; i = this.pending.indexOf('\n')) {
      const line = this.pending.slice(0, i);
      this.pending = this.pending.slice(i + 1);
      this.emit(line.endsWith('\r') ? line.slice(0, -1) : line);
    }
  }

  end(): void {
    this.add(this.decoder.end());
    if (this.pending) this.emit(this.pending);
    this.pending = '';
  }
}

export function buildCommand(
  script: string,
  args: readonly string[],
  sudo: { prompt: string; ready: string } | undefined,
  timeoutSeconds = 0,
): string {
  if (script.length > MAX_SCRIPT) {
    throw new SshError('protocol', `A remote script is limited to ${MAX_SCRIPT} bytes.`);
  }
  const rest = [shellQuote(String(timeoutSeconds)), shellQuote(script), shellQuoteAll(args)];
  // LC_ALL=C: sudo's and the tools' messages are matched and shown in one language.
  if (!sudo) return ['LC_ALL=C bash -c', shellQuote(DIRECT_WRAPPER), 'portico', ...rest].join(' ');
  return [
    'LC_ALL=C sudo -S -p',
    shellQuote(sudo.prompt),
    '-- bash -c',
    shellQuote(SUDO_WRAPPER),
    'portico',
    shellQuote(sudo.ready),
    ...rest,
  ].join(' ');
}

function sudoRefusal(identity: TIdentity, output: string, code: number): SudoRefusedError {
  const raw = output.trim();
  const user = identity.username;
  let reason: string;
  let key: string;
  if (/not in the sudoers|not allowed to execute|may not run sudo/i.test(raw)) {
    reason = `The user ${user} is not allowed to use sudo on this server.`;
    key = 'sudoNotAllowed';
  } else if (identity.password === undefined && /password|a terminal is required/i.test(raw)) {
    reason = `sudo needs a password for ${user}, and none was given.`;
    key = 'sudoNeedsPassword';
  } else if (/incorrect password|no password was provided|Sorry, try again/i.test(raw)) {
    reason = `sudo refused the password of ${user}.`;
    key = 'sudoWrongPassword';
  } else if (/must have a tty/i.test(raw)) {
    reason =
      'sudo on this server requires a terminal (Defaults requiretty); allow it without one for this user, or log in as root.';
    key = 'sudoRequiresTty';
  } else if (code === 127 || /sudo: (command )?not found/i.test(raw)) {
    reason = 'sudo is not installed on this server; log in as root instead.';
    key = 'sudoMissing';
  } else {
    reason = `sudo failed (exit ${code}).`;
    key = 'sudoFailed';
  }
  return new SudoRefusedError(reason, raw, { key, params: { user, code: String(code) } });
}

/** Runs one constant script on an open connection; see TRunOptions. */
export function runScript(
  client: Client,
  identity: TIdentity,
  script: string,
  options: TRunOptions = {},
): Promise<TRunResult> {
  const viaSudo = options.sudo === true && !identity.isRoot;
  const token = randomBytes(12).toString('hex');
  const gate = viaSudo
    ? { prompt: `[portico-sudo-${token}]`, ready: `portico-ready-${token}` }
    : undefined;
  if (gate && identity.password?.includes('\n')) {
    return Promise.reject(new SshError('auth_failed', 'A sudo password cannot contain a newline.'));
  }
  const seconds =
    options.timeoutMs === undefined ? 0 : Math.max(1, Math.ceil(options.timeoutMs / 1000));
  const command = buildCommand(script, options.args ?? [], gate, seconds);

  // A command that could not start is a protocol error here; the session (connect.ts) names it
  // the lost connection when the connection ended under it.
  const notStarted = (error: Error) =>
    new SshError('protocol', `Could not start a command: ${error.message}`);
  return new Promise((resolve, reject) => {
    try {
      client.exec(command, (error, channel) => {
        if (error) {
          reject(notStarted(error));
          return;
        }
        handleChannel(channel, identity, gate, options, resolve, reject);
      });
    } catch (error) {
      // ssh2 throws at once when its socket can no longer be written ("Not connected").
      reject(notStarted(error as Error));
    }
  });
}

function handleChannel(
  channel: ClientChannel,
  identity: TIdentity,
  gate: { prompt: string; ready: string } | undefined,
  options: TRunOptions,
  resolve: (r: TRunResult) => void,
  reject: (e: Error) => void,
): void {
  const out = new Lines((line) => options.onLine?.('stdout', line));
  const err = new Lines((line) => options.onLine?.('stderr', line));
  let passed = gate === undefined;
  let sudoText = '';
  let prompts = 0;
  let exit: { code: number; signal?: string } | undefined;
  let timedOut = false;

  const sendInput = () => {
    if (options.stdin !== undefined) channel.write(options.stdin);
    channel.end();
  };

  const startedAt = Date.now();
  let settled = false;
  const settle = (fn: () => void) => {
    if (settled) return;
    settled = true;
    fn();
  };
  const timeoutError = () => new CommandTimeoutError(options.timeoutMs ?? 0, out.text);
  // The remote `timeout` does the killing; this only stops waiting if the server never answers.
  const timer =
    options.timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          channel.close();
          settle(() => reject(timeoutError()));
        }, options.timeoutMs + 5000);

  channel.on('data', (chunk: Buffer) => out.push(chunk));
  channel.stderr.on('data', (chunk: Buffer) => {
    if (passed) {
      err.push(chunk);
      return;
    }
    sudoText += chunk.toString('utf8');
    if (gate && sudoText.includes(gate.prompt)) {
      sudoText = sudoText.replace(gate.prompt, '');
      prompts += 1;
      // Only the first prompt gets the password; a second one means it was refused.
      if (prompts === 1 && identity.password !== undefined) {
        channel.write(`${identity.password}\n`);
      } else {
        channel.end();
      }
    }
    const marker = gate ? sudoText.indexOf(`${gate.ready}\n`) : -1;
    if (gate && marker !== -1) {
      passed = true;
      // Whatever sudo said before letting us through (warnings) is ordinary stderr.
      const before = sudoText.slice(0, marker).replace(/\n$/, '');
      if (before.trim()) err.add(`${before}\n`);
      err.add(sudoText.slice(marker + gate.ready.length + 1));
      sendInput();
    }
  });
  channel.on('exit', (code: number | null, signal?: string) => {
    exit = { code: code ?? 255, ...(signal ? { signal } : {}) };
  });
  channel.on('close', () => {
    if (timer) clearTimeout(timer);
    out.end();
    err.end();
    const code = exit?.code ?? 255;
    const killedByTimeout =
      options.timeoutMs !== undefined &&
      passed &&
      (code === 128 + 9 || exit?.signal === 'SIGKILL' || exit?.signal === 'KILL') &&
      Date.now() - startedAt >= options.timeoutMs;
    settle(() => {
      if (timedOut || killedByTimeout) {
        reject(timeoutError());
      } else if (exit === undefined) {
        reject(
          new SshError('connection_lost', 'The connection closed before the command finished.', {
            text: { key: 'closedMidCommand' },
          }),
        );
      } else if (!passed) {
        reject(sudoRefusal(identity, sudoText, code));
      } else {
        const signal = exit.signal ? { signal: exit.signal } : {};
        resolve({ code, ...signal, stdout: out.text, stderr: err.text });
      }
    });
  });
  if (passed) sendInput();
}
