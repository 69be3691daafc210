import { Resolver } from 'node:dns/promises';
import { StepError } from './failure';
import type { EngineLog } from './logger';

const NO_RECORD = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN']);

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
  const resolver = new Resolver({ timeout: 3000, tries: 2 });
  if (dnsServers && dnsServers.length > 0) resolver.setServers(dnsServers);
  const via = dnsServers?.length ? dnsServers.join(', ') : 'the system resolvers';
  log.info(`Looking up the A record of ${domain} (via ${via}).`);
  let addresses: string[];
  try {
    addresses = await resolver.resolve4(domain);
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    if (NO_RECORD.has(code)) {
      throw new StepError(
        'dns_mismatch',
        'preflight',
        `${domain} has no A record (DNS answered ${code}), so no certificate authority can reach this server for it. Create an A record pointing ${domain} at ${serverIp}, wait for it to propagate, then deploy again.`,
      );
    }
    log.warning(
      `Could not look up ${domain} (${code || (error as Error).message}); continuing, and the certificate step will report what the certificate authority sees.`,
    );
    return;
  }
  if (!addresses.includes(serverIp)) {
    throw new StepError(
      'dns_mismatch',
      'preflight',
      `${domain} points at ${addresses.join(', ')}, not at this server (${serverIp}). The certificate authority would check the wrong machine. Change the A record of ${domain} to ${serverIp}, wait for it to propagate, then deploy again.`,
    );
  }
  const v6 = await resolver.resolve6(domain).catch(() => [] as string[]);
  if (v6.length > 0) {
    log.warning(
      `${domain} also has AAAA (IPv6) records: ${v6.join(', ')}. Certificate authorities prefer IPv6, so make sure those addresses reach this server too, or remove them.`,
    );
  }
  if (addresses.length > 1) {
    log.warning(
      `${domain} has several A records (${addresses.join(', ')}); the certificate check may reach one of the other addresses.`,
    );
  } else {
    log.info(`${domain} points at ${serverIp}, as it should.`);
  }
}
