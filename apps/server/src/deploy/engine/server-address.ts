import { Resolver } from 'node:dns/promises';
import { assertDomain, isIpv4 } from '../validate';
import { StepError } from './failure';
import type { EngineLog } from './logger';
import { say } from './messages';

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
  const resolver = new Resolver({ timeout: 3000, tries: 2 });
  if (dnsServers && dnsServers.length > 0) resolver.setServers(dnsServers);
  let addresses: string[];
  try {
    addresses = await resolver.resolve4(host);
  } catch (error) {
    const code = (error as { code?: string }).code ?? (error as Error).message;
    throw new StepError('tcp_connect', 'connect', say(log, 'connect.unresolved', { host, code }));
  }
  const address = addresses[0]!;
  log.info(say(log, 'connect.resolved', { host, address }));
  return address;
}
