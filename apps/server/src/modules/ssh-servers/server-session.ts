import { sshAddressProblem } from '@portico/shared/validation/reachability';
import type { TSshServerRow } from '../../db/schema';
import { type connectSsh, HostKeyMismatchError, type TSshSession } from '../../deploy/ssh';
import { KeyedAppError } from '../../lib/app-error';
import {
  credentialRefusalError,
  serverTarget,
  type TServerCredentials,
} from './server-credentials';
import type { TSshServersRepository } from './ssh-servers.repository';

export interface TServerSessionDeps {
  repository: Pick<TSshServersRepository, 'pinHostKey'>;
  credentials: TServerCredentials;
  /** 127.0.0.0/8 may be reached (PORTICO_SSH_ALLOW_LOOPBACK), as for the SSH test. */
  allowLoopback?: boolean;
  connect: typeof connectSsh;
  timeoutMs: number;
}

/** A host key that is not the pinned one: nothing runs, nothing is stored, the page says why. */
export function hostKeyChangedError(error: HostKeyMismatchError): KeyedAppError {
  return new KeyedAppError('host_key_changed', 409, 'sshServer.hostKeyChanged', {
    expected: error.expectedFingerprint,
    actual: error.actualFingerprint,
  });
}

/**
 * One login to a saved server with its saved credential against its pinned host key (pinned
 * now when none was): the check and the site scan both start here. A server that cannot be
 * reached rejects with the SshError, for the caller to word.
 */
export async function openServerSession(
  deps: TServerSessionDeps,
  row: TSshServerRow,
  signal?: AbortSignal,
): Promise<TSshSession> {
  if (sshAddressProblem(row.host) === 'loopback' && !deps.allowLoopback) {
    throw new KeyedAppError('address_refused', 400, 'checks.ssh.loopbackRefused');
  }
  const credential = deps.credentials.credentialOf(null, row, serverTarget(row));
  if ('refused' in credential) throw credentialRefusalError(credential.refused, 'test');
  const pinned = row.hostKeyFingerprint ?? undefined;
  let session: TSshSession;
  try {
    session = await deps.connect({
      host: row.host,
      port: row.port,
      username: row.username,
      ...credential.auth,
      expectedFingerprint: pinned,
      timeoutMs: deps.timeoutMs,
      signal,
    });
  } catch (error) {
    if (error instanceof HostKeyMismatchError) throw hostKeyChangedError(error);
    throw error;
  }
  if (!pinned) {
    try {
      await deps.repository.pinHostKey(row.id, session.fingerprint, row);
    } catch (error) {
      session.close();
      throw error;
    }
  }
  return session;
}
