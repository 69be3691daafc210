import type { Client, ConnectConfig } from 'ssh2';
import { HostKeyMismatchError, SshError } from './errors';
import { readRemoteFile, remoteFileState, sameFile, type TFileState } from './file-state';
import { fingerprintOf } from './fingerprint';
import { runScript, type TRunOptions, type TRunResult } from './run';
import { inlineWritable, writeInline, writeRemoteFile } from './write-file';

export interface TConnectOptions {
  host: string;
  port: number;
  username: string;
  password?: string;
  privateKey?: string | Buffer;
  passphrase?: string;
  /** With a key: the password sudo asks for (a password login's sudo uses that password). */
  sudoPassword?: string;
  /** The pinned `SHA256:…`; when absent any key is accepted and reported (trust on first use). */
  expectedFingerprint?: string;
  timeoutMs?: number;
  /** Aborting gives up a connection still being set up at once (a stop does not wait for it). */
  signal?: AbortSignal;
  /**
   * How often an idle connection asks the server for a sign of life; after KEEPALIVE_MISSES
   * unanswered asks the connection is given up and every command on it fails. Tests shorten it.
   */
  keepaliveMs?: number;
}

export interface TSshSession {
  /** The host key the server presented, as `ssh-keygen -lf` prints it. */
  readonly fingerprint: string;
  readonly username: string;
  readonly isRoot: boolean;
  run(script: string, options?: TRunOptions): Promise<TRunResult>;
  /** Writes a file as root (directly or through sudo): temp name, then an atomic rename. */
  writeFile(path: string, content: string | Buffer, mode: number): Promise<void>;
  /**
   * writeFile only when the file differs in content or mode, so a repeated deployment leaves
   * files untouched. Resolves true when it wrote.
   */
  syncFile(path: string, content: string | Buffer, mode: number): Promise<boolean>;
  /** Mode and SHA-256 of a regular file, read as root. */
  fileState(path: string): Promise<TFileState>;
  /** Content of a regular file read as root (e.g. to restore it later); undefined if absent. */
  readFile(path: string): Promise<Buffer | undefined>;
  close(): void;
}

const KEEPALIVE_MS = 10_000;
const KEEPALIVE_MISSES = 3;
const TCP_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EADDRNOTAVAIL',
]);

function closedByServer(address: string): SshError {
  return new SshError(
    'closed_by_server',
    `The SSH server at ${address} closed the connection before the login finished.`,
    { text: { key: 'closedBeforeLogin', params: { address } } },
  );
}

function classify(
  error: Error & { level?: string; code?: string },
  address: string,
  tcpConnected: boolean,
  timeoutMs: number,
  withKey = false,
): SshError {
  if (error.level === 'client-authentication' && withKey) {
    return new SshError('key_refused', `The server at ${address} refused this key.`, {
      cause: error,
      text: { key: 'keyRefused', params: { address } },
    });
  }
  if (error.level === 'client-authentication') {
    return new SshError(
      'auth_failed',
      `The server at ${address} refused the login: wrong user name, password or key, or this login method is disabled.`,
      { cause: error, text: { key: 'authFailed', params: { address } } },
    );
  }
  if (error.level === 'client-timeout' || /timed out/i.test(error.message)) {
    return tcpConnected
      ? new SshError(
          'timeout',
          `The SSH server at ${address} accepted the connection but did not complete the handshake within ${timeoutMs / 1000} s.`,
          {
            cause: error,
            text: { key: 'handshakeTimeout', params: { address, seconds: timeoutMs / 1000 } },
          },
        )
      : new SshError(
          'tcp_connect',
          `No answer from ${address} within ${timeoutMs / 1000} s: check the address, the port and any firewall.`,
          {
            cause: error,
            text: { key: 'noAnswer', params: { address, seconds: timeoutMs / 1000 } },
          },
        );
  }
  // Connected, then reset or unable to write: the server dropped the connection mid-handshake.
  if (tcpConnected && (error.code === 'EPIPE' || error.code === 'ECONNRESET')) {
    return closedByServer(address);
  }
  if (error.code && TCP_CODES.has(error.code)) {
    const refused = error.code === 'ECONNREFUSED';
    const why = refused ? 'connection refused (no SSH server listening on that port?)' : error.code;
    return new SshError('tcp_connect', `Cannot reach ${address}: ${why}.`, {
      cause: error,
      text: refused
        ? { key: 'refused', params: { address } }
        : { key: 'unreachable', params: { address, code: error.code } },
    });
  }
  if (/keepalive/i.test(error.message)) {
    return new SshError('connection_lost', `The connection to ${address} stopped answering.`, {
      cause: error,
      text: { key: 'stoppedAnswering', params: { address } },
    });
  }
  if (/bad passphrase|no passphrase given/i.test(error.message)) {
    return new SshError('key_passphrase', 'Cannot read the key: wrong passphrase.', {
      cause: error,
      text: { key: 'keyPassphraseWrong' },
    });
  }
  if (/privateKey|private key|passphrase/i.test(error.message)) {
    return new SshError('invalid_key', 'The private key cannot be read (format or passphrase).', {
      cause: error,
      text: { key: 'invalidKey' },
    });
  }
  return new SshError('protocol', `SSH to ${address} failed: ${error.message}`, {
    cause: error,
    text: { key: 'failed', params: { address, reason: error.message } },
  });
}

/** ssh2, loaded at the first connection: an instance that never connects never holds it. */
let ssh2: Promise<typeof import('ssh2')> | undefined;

/**
 * Opens an SSH connection; rejects with a classified SshError. It settles on every way the
 * attempt can end: ready, an error, the server closing or ending the connection at any point
 * before the login finished (ssh2 then emits only end/close, and clears its own ready timeout:
 * OpenSSH does so on a password holding a NUL), an abort, or this function's own deadline of
 * `timeoutMs`, which counts from the call and does not rely on ssh2's.
 */
export async function connectSsh(options: TConnectOptions): Promise<TSshSession> {
  ssh2 ??= import('ssh2');
  const { Client } = await ssh2;
  return connectClient(new Client(), options);
}

function connectClient(client: Client, options: TConnectOptions): Promise<TSshSession> {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const address = `${options.host}:${options.port}`;
  let observed: string | undefined;
  let tcpConnected = false;
  const withKey = options.privateKey !== undefined && options.password === undefined;

  return new Promise((resolve, reject) => {
    let settled = false;
    const onAbort = () =>
      fail(
        new SshError('connection_lost', `The connection to ${address} was given up.`, {
          text: { key: 'closed' },
        }),
      );
    const deadline = setTimeout(() => {
      const error = Object.assign(new Error('Timed out while waiting for handshake'), {
        level: 'client-timeout',
      });
      fail(classify(error, address, tcpConnected, timeoutMs));
    }, timeoutMs);
    const done = () => {
      settled = true;
      clearTimeout(deadline);
      options.signal?.removeEventListener('abort', onAbort);
    };
    const fail = (error: SshError) => {
      if (settled) return;
      done();
      client.end();
      client.destroy();
      reject(error);
    };
    if (options.signal?.aborted) {
      onAbort();
      return;
    }
    options.signal?.addEventListener('abort', onAbort, { once: true });

    client.on('connect', () => {
      tcpConnected = true;
    });
    const closedEarly = () =>
      fail(
        tcpConnected
          ? closedByServer(address)
          : new SshError('tcp_connect', `Cannot reach ${address}: the connection closed.`, {
              text: { key: 'unreachable', params: { address, code: 'closed' } },
            }),
      );
    // ssh2 emits 'error' (when there is one) before 'end' and 'close', so an error, which says
    // more, settles first; a bare close before 'ready' settles here.
    client.on('end', closedEarly);
    client.on('close', closedEarly);
    client.on('error', (error) => {
      if (
        observed &&
        options.expectedFingerprint &&
        observed !== options.expectedFingerprint &&
        !settled
      ) {
        fail(new HostKeyMismatchError(options.expectedFingerprint, observed, address));
        return;
      }
      fail(classify(error, address, tcpConnected, timeoutMs, withKey));
    });
    if (options.password !== undefined) {
      const password = options.password;
      // Servers that only offer keyboard-interactive still get the password, and nothing else.
      client.on('keyboard-interactive', (_name, _instructions, _lang, prompts, finish) => {
        finish(prompts.map(() => password));
      });
    }
    client.on('ready', () => {
      if (settled) return;
      done();
      client.off('end', closedEarly);
      client.off('close', closedEarly);
      resolve(makeSession(client, options, observed!));
    });

    const config: ConnectConfig = {
      host: options.host,
      port: options.port,
      username: options.username,
      // One clock for the whole attempt: the deadline above (0 turns ssh2's own off).
      readyTimeout: 0,
      keepaliveInterval: options.keepaliveMs ?? KEEPALIVE_MS,
      keepaliveCountMax: KEEPALIVE_MISSES,
      tryKeyboard: options.password !== undefined,
      hostVerifier: (key: Buffer) => {
        observed = fingerprintOf(key);
        return (
          options.expectedFingerprint === undefined || observed === options.expectedFingerprint
        );
      },
    };
    if (options.password !== undefined) config.password = options.password;
    if (options.privateKey !== undefined) config.privateKey = options.privateKey;
    if (options.passphrase !== undefined) config.passphrase = options.passphrase;
    try {
      client.connect(config);
      // Each exec is a few small packets each way; with Nagle's algorithm a packet waits for
      // the server's delayed ACK (40 ms on Linux) before it leaves, for every exec.
      client.setNoDelay(true);
    } catch (error) {
      // ssh2 parses the private key synchronously.
      fail(classify(error as Error, address, false, timeoutMs, withKey));
    }
  });
}

function makeSession(client: Client, options: TConnectOptions, fingerprint: string): TSshSession {
  const identity = {
    username: options.username,
    isRoot: options.username === 'root',
    ...(options.password !== undefined ? { password: options.password } : {}),
    ...(options.password === undefined && options.sudoPassword !== undefined
      ? { password: options.sudoPassword }
      : {}),
  };
  // Ended by either side: no command starts on it again.
  let closed = false;
  const markClosed = () => {
    closed = true;
  };
  client.on('end', markClosed);
  client.on('close', markClosed);
  const lost = () =>
    new SshError('connection_lost', 'The SSH connection is closed.', { text: { key: 'closed' } });
  // Every way ssh2 fails a request whose connection is gone reads as something else: "No
  // response from server" (the keepalive gave up on a silent link), "Unable to exec" (the link
  // dropped between the channel's opening and the server's answer, the words of a server that
  // refuses a command), "Not connected" (the socket already ended). ssh2 emits 'end' or 'close'
  // before it fails the pending requests, so a failure that comes with the connection's end is
  // named here, once, for what it is. Every remote operation goes through `run` or `writeFile`.
  const whileOpen = async <T>(operation: () => Promise<T>): Promise<T> => {
    if (closed) throw lost();
    try {
      return await operation();
    } catch (error) {
      if (closed && error instanceof SshError && error.code === 'protocol') throw lost();
      throw error;
    }
  };
  const session: TSshSession = {
    fingerprint,
    username: identity.username,
    isRoot: identity.isRoot,
    run: (script, runOptions) => whileOpen(() => runScript(client, identity, script, runOptions)),
    writeFile: (path, content, mode) =>
      whileOpen(() => writeRemoteFile(client, identity, session, path, content, mode)),
    syncFile: async (path, content, mode) => {
      const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
      // Content that may travel inline is compared and written by one script on the server.
      if (inlineWritable(data, mode)) return writeInline(session, path, data, mode, 'sync');
      if (sameFile(await session.fileState(path), content, mode)) return false;
      await session.writeFile(path, content, mode);
      return true;
    },
    fileState: (path) => remoteFileState(session.run, path),
    readFile: (path) => readRemoteFile(session.run, path),
    close: () => {
      closed = true;
      client.end();
    },
  };
  return session;
}
