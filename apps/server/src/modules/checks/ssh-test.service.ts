import { sshAddressProblem } from '@portico/shared/validation/reachability';
import type { TConnectOptions } from '../../deploy/ssh';
import { connectSsh, HostKeyMismatchError, SshError } from '../../deploy/ssh';
import { AppError, KeyedAppError, type TMessage } from '../../lib/app-error';
import {
  credentialRefusalError,
  serverTarget,
  type TServerCredentials,
} from '../ssh-servers/server-credentials';
import type { TChecksRepository } from './checks.repository';

/**
 * POST /api/test-ssh: one login attempt against the user's server, at most 10 s.
 *
 * What the answer reveals, on purpose: `connected` (it must: that is the test) and, on failure,
 * one fixed sentence plus a cause category: connection refused, no answer in time, login
 * refused, host key changed, or "not an SSH server". The categories tell the user which thing to
 * fix (firewall, sshd, password, reinstall) and reveal nothing a plain TCP connect or the
 * success flag would not already tell an attacker. What limits using Portico as a relay to guess
 * passwords on someone else's server is not vagueness but volume: every attempt costs the caller
 * a signed-in account and counts against a per-user limit and a per-target-host limit shared by
 * all users (see checks.routes.ts). The server's own words (banner, error text) are never passed
 * on, the password never appears in an answer or a log line, and a stored password is only ever
 * sent to the host, port and user it was saved for.
 */

const SSH_TEST_TIMEOUT_MS = 10_000;

export interface TSshTestInput {
  serverIp?: string;
  username?: string;
  port: number;
  password?: string;
  configurationId?: string;
  /** A saved server of the caller's: its address, port, user and secrets, nothing typed. */
  sshServerId?: string;
}

export interface TSshCheck {
  connected: boolean;
  fingerprint: string | null;
  /** Why it failed; the route puts it after the one uniform sentence. */
  cause?: TMessage;
}

export interface TSshTestServiceOptions {
  repository: TChecksRepository;
  /** Which saved credential may go to the tested host (the one rule every SSH user follows). */
  credentials: TServerCredentials;
  timeoutMs?: number;
  /** 127.0.0.0/8 may be tested (PORTICO_SSH_ALLOW_LOOPBACK); refused otherwise. */
  allowLoopback?: boolean;
}

export type TSshTestService = ReturnType<typeof createSshTestService>;

function causeOf(error: SshError): TMessage {
  if (error instanceof HostKeyMismatchError) {
    return {
      key: 'checks.ssh.cause.hostKeyChanged',
      params: { expected: error.expectedFingerprint, actual: error.actualFingerprint },
    };
  }
  const errno = (error.cause as NodeJS.ErrnoException | undefined)?.code;
  switch (error.code) {
    case 'auth_failed':
      return { key: 'checks.ssh.cause.authFailed' };
    case 'key_refused':
      return { key: 'checks.ssh.cause.keyRefused' };
    case 'key_passphrase':
      return { key: 'checks.ssh.cause.keyPassphraseWrong' };
    case 'timeout':
      return { key: 'checks.ssh.cause.timedOut' };
    case 'tcp_connect':
      if (errno === 'ECONNREFUSED') return { key: 'checks.ssh.cause.refused' };
      if (errno === 'EHOSTUNREACH' || errno === 'ENETUNREACH') {
        return { key: 'checks.ssh.cause.unreachable' };
      }
      return { key: 'checks.ssh.cause.timedOut' };
    case 'closed_by_server':
      return { key: 'checks.ssh.cause.closedEarly' };
    case 'connection_lost':
      return { key: 'checks.ssh.cause.timedOut' };
    default:
      return { key: 'checks.ssh.cause.protocol' };
  }
}

export function createSshTestService(options: TSshTestServiceOptions) {
  const timeoutMs = options.timeoutMs ?? SSH_TEST_TIMEOUT_MS;

  /** The schema refuses the other non-server ranges; loopback is this machine itself. */
  function refuseLoopback(host: string) {
    if (sshAddressProblem(host) === 'loopback' && !options.allowLoopback) {
      throw new KeyedAppError('address_refused', 400, 'checks.ssh.loopbackRefused');
    }
  }

  async function ownServer(userId: string, id: string) {
    const server = await options.repository.findOwnSshServer(userId, id);
    if (!server) throw new AppError('not_found', 404);
    return server;
  }

  /** A saved server's login: where it is, its secrets and its pinned host key. */
  async function savedServerLogin(userId: string, id: string) {
    const server = await ownServer(userId, id);
    const target = serverTarget(server);
    const saved = options.credentials.credentialOf(null, server, target);
    if ('refused' in saved) {
      if (saved.refused.reason === 'no_credential') {
        throw new KeyedAppError('password_required', 400, 'checks.ssh.serverHasNoCredential', {
          target: saved.refused.target,
        });
      }
      throw credentialRefusalError(saved.refused, 'test');
    }
    return {
      host: server.host,
      port: server.port,
      username: server.username,
      auth: saved.auth,
      expectedFingerprint: server.hostKeyFingerprint ?? undefined,
    };
  }

  async function connect(login: {
    host: string;
    port: number;
    username: string;
    auth: Pick<TConnectOptions, 'password' | 'privateKey' | 'passphrase'>;
    expectedFingerprint?: string;
  }): Promise<TSshCheck> {
    refuseLoopback(login.host);
    try {
      const session = await connectSsh({
        host: login.host,
        port: login.port,
        username: login.username,
        ...login.auth,
        expectedFingerprint: login.expectedFingerprint,
        timeoutMs,
      });
      session.close();
      return { connected: true, fingerprint: session.fingerprint };
    } catch (error) {
      if (!(error instanceof SshError)) throw error;
      return { connected: false, fingerprint: null, cause: causeOf(error) };
    }
  }

  return {
    /** The host a test will contact, for the per-host limit: typed, or the saved server's. */
    async hostOf(userId: string, input: TSshTestInput): Promise<string> {
      return input.sshServerId
        ? (await ownServer(userId, input.sshServerId)).host
        : (input.serverIp ?? '');
    },

    async test(userId: string, input: TSshTestInput): Promise<TSshCheck> {
      if (input.sshServerId) return connect(await savedServerLogin(userId, input.sshServerId));
      const serverIp = input.serverIp!;
      const username = input.username!;
      refuseLoopback(serverIp);
      let auth: Pick<TConnectOptions, 'password' | 'privateKey' | 'passphrase'> | undefined =
        input.password === undefined ? undefined : { password: input.password };
      let expectedFingerprint: string | undefined;
      if (input.configurationId) {
        const stored = await options.repository.findOwnSshTarget(userId, input.configurationId);
        if (!stored) throw new AppError('not_found', 404);
        const sameHost = stored.serverIp === serverIp && stored.sshPort === input.port;
        const target = { serverIp, sshPort: input.port, sshUser: username };
        // The pin belongs to the host it was taken from (its saved server's, when the proxy is on
        // one there); a new address is a new first contact.
        expectedFingerprint = await options.credentials.hostKeyFor(
          stored,
          target,
          sameHost ? stored.hostKeyFingerprint : null,
        );
        if (auth === undefined) {
          const saved = await options.credentials.credentialFor(stored, target);
          // Nothing saved for this target: the form asks for the password below.
          if ('refused' in saved && saved.refused.reason !== 'no_credential') {
            throw credentialRefusalError(saved.refused, 'test');
          }
          if ('auth' in saved) auth = saved.auth;
        }
      }
      if (auth === undefined) {
        throw new KeyedAppError('password_required', 400, 'checks.ssh.passwordRequired');
      }
      return connect({ host: serverIp, port: input.port, username, auth, expectedFingerprint });
    },
  };
}
