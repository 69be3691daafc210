import { sshAddressProblem } from '@portico/shared/validation/reachability';
import { assertDomain, assertPort, isIpv4 } from '../validate';
import { StepError, toFailure } from './failure';
import type { EngineLog } from './logger';
import { msg } from './messages';
import { engineResolver } from './preflight-dns';
import { withServerLock } from './server-lock';
import type { TDeployFailure, TEngineContext } from './types';

/**
 * The server as an IPv4 address. The wizard takes an address; the edit dialog also takes a host
 * name (spec: "IPv4 address or hostname"), resolved once here so the whole run (SSH, the DNS
 * check, the final TLS check, the per-server lock) talks to one and the same machine.
 */
export async function resolveServerAddress(
  value: unknown,
  dnsServers: string[] | undefined,
  log: EngineLog,
): Promise<string> {
  if (isIpv4(value)) return value;
  const host = assertDomain(value, 'serverIp');
  const resolver = engineResolver(dnsServers);
  let addresses: string[];
  try {
    addresses = await resolver.resolve4(host);
  } catch (error) {
    const code = (error as { code?: string }).code ?? (error as Error).message;
    throw new StepError('tcp_connect', 'connect', msg('connect.unresolved', { host, code }));
  }
  const address = addresses[0]!;
  log.info(msg('connect.resolved', { host, address }));
  return address;
}

/**
 * The SSH-test reachability policy (packages/shared validation/reachability.ts) applied to the
 * address a run will connect to, after any host name was resolved: a name may point anywhere.
 */
function refuseNonServer(address: string, allowLoopback: boolean | undefined) {
  const problem = sshAddressProblem(address);
  if (!problem || (problem === 'loopback' && allowLoopback)) return;
  // The reason is the shared schema's own sentence, so the form and the run say the same.
  const text =
    problem === 'loopback'
      ? msg('connect.loopbackRefused', { address })
      : msg('connect.notAServer', { address, reason: { key: `validation.ip.${problem}` } });
  throw new StepError('invalid_input', 'validate', text);
}

/**
 * What a deployment and a removal do first: check the port, resolve the server and wait for its
 * lock (not with `lock: false`: a plan only reads), then run `work` on the resolved input. A
 * failure before `work` starts (a bad value as step 'validate', an unknown name or a cancel
 * while waiting as 'connect') is logged as the last line and returned as a failed outcome;
 * `work` turns its own failures into outcomes.
 */
export async function onServer<TInput extends { serverIp: string; sshPort: unknown }, TOutcome>(
  input: TInput,
  ctx: TEngineContext,
  log: EngineLog,
  work: (resolved: TInput, ctx: TEngineContext) => Promise<TOutcome>,
  options: { lock?: boolean } = {},
): Promise<TOutcome | { status: 'failed'; failure: TDeployFailure }> {
  let step = 'validate';
  // The signal the work ran under (it also aborts when the server's shared lock is lost) and
  // the step it reached: a work that ignored its abort is failed here, with why and where.
  let held = ctx.signal;
  try {
    const port = assertPort(input.sshPort, 'sshPort');
    const serverIp = await resolveServerAddress(input.serverIp, ctx.settings.dnsServers, log);
    refuseNonServer(serverIp, ctx.settings.allowLoopback);
    step = 'connect';
    const onStep = (entered: string) => {
      step = entered;
      ctx.onStep?.(entered);
    };
    if (options.lock === false) return await work({ ...input, serverIp }, { ...ctx, onStep });
    return await withServerLock(
      `${serverIp}:${port}`,
      log,
      ctx.signal,
      (signal) => {
        held = signal;
        return work({ ...input, serverIp }, { ...ctx, signal, onStep });
      },
      ctx.settings.sharedLocks,
    );
  } catch (error) {
    const failure = toFailure(error, step, log, held);
    log.error(failure.text);
    await log.flush();
    return { status: 'failed', failure };
  }
}
