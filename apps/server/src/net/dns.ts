import { lookup as systemLookup } from 'node:dns';
import { lookup, Resolver } from 'node:dns/promises';

/** What Portico asks of DNS servers: the A and AAAA records of a name. */
export interface TDnsResolver {
  resolve4(name: string): Promise<string[]>;
  resolve6(name: string): Promise<string[]>;
}

/**
 * A resolver asking `servers` (host[:port] entries, PORTICO_DNS_SERVERS; none: the system's),
 * each query waiting `timeoutMs` (c-ares doubles it on each retry), `tries` times. Make one per
 * lookup: cancel() or a slow server then never affects another caller.
 */
export function dnsResolver(
  servers: string[] | undefined,
  options: { timeoutMs: number; tries: number },
): TDnsResolver {
  const resolver = new Resolver({ timeout: options.timeoutMs, tries: options.tries });
  if (servers && servers.length > 0) resolver.setServers(servers);
  return resolver;
}

/** Every address the system's lookup (hosts file, then DNS) gives `host`, in its order. */
export const lookupAll = (host: string) => lookup(host, { all: true, verbatim: true });

/** The system's lookup in the callback form a socket's `lookup` option takes. */
export { systemLookup };
