import { dnsResolver, type TDnsResolver } from '../../net/dns';
import { StepError } from './failure';
import type { EngineLog } from './logger';
import { msg } from './messages';

const NO_RECORD = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN']);

/** The engine's lookups: the configured resolvers (the system's when none), 2 tries of 3 s. */
export function engineResolver(dnsServers: string[] | undefined): TDnsResolver {
  return dnsResolver(dnsServers, { timeoutMs: 3000, tries: 2 });
}

/**
 * The domain's A record must include the server's address, or the CA's HTTP check would reach
 * another machine. Resolvers that cannot answer only produce a warning: certbot will then say
 * exactly what the CA saw.
 */
export async function checkDns(
  domain: string,
  serverIp: string,
  dnsServers: string[] | undefined,
  log: EngineLog,
): Promise<void> {
  const resolver = engineResolver(dnsServers);
  const via = dnsServers?.length ? dnsServers.join(', ') : msg('dns.systemResolvers');
  log.info(msg('dns.lookup', { domain, via }));
  let addresses: string[];
  try {
    addresses = await resolver.resolve4(domain);
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    if (NO_RECORD.has(code)) {
      throw new StepError(
        'dns_mismatch',
        'preflight',
        msg('dns.noRecord', { domain, code, serverIp }),
      );
    }
    log.warning(msg('dns.lookupFailed', { domain, reason: code || (error as Error).message }));
    return;
  }
  if (!addresses.includes(serverIp)) {
    throw new StepError(
      'dns_mismatch',
      'preflight',
      msg('dns.elsewhere', { domain, addresses: addresses.join(', '), serverIp }),
    );
  }
  const v6 = await resolver.resolve6(domain).catch(() => [] as string[]);
  if (v6.length > 0) {
    log.warning(msg('dns.aaaa', { domain, addresses: v6.join(', ') }));
  }
  if (addresses.length > 1) {
    log.warning(msg('dns.several', { domain, addresses: addresses.join(', ') }));
  } else {
    log.info(msg('dns.ok', { domain, serverIp }));
  }
}
