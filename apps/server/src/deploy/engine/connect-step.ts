import { connectSsh, type TSshSession } from '../ssh';
import { assertIpv4, assertPort, assertSshUser } from '../validate';
import { StepError } from './failure';
import type { EngineLog } from './logger';
import { msg } from './messages';
import { asRoot, firstMarked } from './step-context';
import type { TEngineContext, TSshAuth } from './types';

export interface TConnectInput {
  serverIp: string;
  sshPort: number;
  sshUser: string;
  auth: TSshAuth;
  expectedFingerprint?: string;
}

export const ROOT_CHECK = 'printf "PORTICO_UID=%s\\n" "$(id -u)"';

/**
 * Step 1a: log in with the pinned host key, report the key to the caller before anything runs,
 * and prove that we can act as root (directly or through sudo). `probe` is a read-only script
 * that prints `PORTICO_UID` first (the remote preflight): it rides on the same sudo round trip,
 * and its output is returned for the next steps to read.
 */
export async function connectStep(
  input: TConnectInput,
  ctx: TEngineContext,
  log: EngineLog,
  probe: { script: string; args: string[] } = { script: ROOT_CHECK, args: [] },
): Promise<{ session: TSshSession; stdout: string }> {
  const host = assertIpv4(input.serverIp, 'serverIp');
  const port = assertPort(input.sshPort, 'sshPort');
  const username = assertSshUser(input.sshUser, 'sshUser');
  const who = { host, port, user: username };
  log.info(
    input.expectedFingerprint
      ? msg('connect.expecting', { ...who, fingerprint: input.expectedFingerprint })
      : msg('connect.firstTime', who),
  );
  const session = await connectSsh({
    host,
    port,
    username,
    expectedFingerprint: input.expectedFingerprint,
    signal: ctx.signal,
    ...('password' in input.auth
      ? { password: input.auth.password }
      : {
          privateKey: input.auth.privateKey,
          passphrase: input.auth.passphrase,
          sudoPassword: input.auth.sudoPassword,
        }),
  });
  try {
    log.info(msg('connect.connected', { fingerprint: session.fingerprint }));
    await ctx.onHostKey?.(session.fingerprint);
    if (!session.isRoot) log.info(msg('connect.checkingSudo', { user: username }));
    const id = await asRoot(session, probe.script, { args: probe.args });
    if (firstMarked(id.stdout, 'PORTICO_UID') !== '0') {
      // What sudo printed: the probe's own marked lines are not its words.
      const said =
        id.stdout
          .split('\n')
          .filter((l) => !l.startsWith('PORTICO_') || l.startsWith('PORTICO_UID='))
          .join('\n')
          .trim() || msg('connect.nothing');
      throw new StepError(
        'sudo_refused',
        'connect',
        msg('connect.notRoot', { said, user: username }),
      );
    }
    log.info(session.isRoot ? msg('connect.root') : msg('connect.sudoWorks', { user: username }));
    return { session, stdout: id.stdout };
  } catch (error) {
    session.close();
    throw error;
  }
}
