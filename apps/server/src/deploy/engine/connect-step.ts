import { connectSsh, type TSshSession } from '../ssh';
import { assertIpv4, assertPort, assertSshUser } from '../validate';
import type { EngineLog } from './logger';
import { asRoot, firstMarked } from './step-context';
import type { TEngineContext, TSshAuth } from './types';

export interface TConnectInput {
  serverIp: string;
  sshPort: number;
  sshUser: string;
  auth: TSshAuth;
  expectedFingerprint?: string;
}

/**
 * Step 1a: log in with the pinned host key, report the key to the caller before anything runs,
 * and prove that we can act as root (directly or through sudo).
 */
export async function connectStep(
  input: TConnectInput,
  ctx: TEngineContext,
  log: EngineLog,
): Promise<TSshSession> {
  const host = assertIpv4(input.serverIp, 'serverIp');
  const port = assertPort(input.sshPort, 'sshPort');
  const username = assertSshUser(input.sshUser, 'sshUser');
  log.info(
    input.expectedFingerprint
      ? `Connecting to ${host}:${port} as ${username}; expecting host key ${input.expectedFingerprint}.`
      : `Connecting to ${host}:${port} as ${username} for the first time; its host key will be pinned.`,
  );
  const session = await connectSsh({
    host,
    port,
    username,
    expectedFingerprint: input.expectedFingerprint,
    ...('password' in input.auth
      ? { password: input.auth.password }
      : { privateKey: input.auth.privateKey, passphrase: input.auth.passphrase }),
  });
  try {
    log.info(`Connected. The server's host key is ${session.fingerprint}.`);
    await ctx.onHostKey?.(session.fingerprint);
    if (!session.isRoot) log.info(`Logged in as ${username}; checking that sudo works.`);
    const who = await asRoot(session, 'printf "PORTICO_UID=%s\\n" "$(id -u)"');
    if (firstMarked(who.stdout, 'PORTICO_UID') !== '0') {
      throw new Error(`could not become root (id -u said ${who.stdout.trim() || 'nothing'})`);
    }
    log.info(session.isRoot ? 'Logged in as root.' : `sudo works: ${username} can act as root.`);
    return session;
  } catch (error) {
    session.close();
    throw error;
  }
}
