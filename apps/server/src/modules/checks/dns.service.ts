import type { TMessage } from '../../lib/app-error';
import { AppError } from '../../lib/app-error';
import { dnsResolver } from '../../net/dns';
import type { TChecksRepository } from './checks.repository';

/** First try 2 s, the retry 4 s (c-ares doubles it): a dead resolver costs the user ~6 s. */
const DNS_TIMEOUT_MS = 2000;
const DNS_TRIES = 2;

export interface TDnsCheck {
  isValid: boolean;
  resolvedIps: string[];
  expectedIp: string;
  error: TMessage | null;
}

export interface TDnsServiceOptions {
  /** host[:port] entries (PORTICO_DNS_SERVERS); empty means the system's resolvers. */
  servers: string[];
  timeoutMs?: number;
  tries?: number;
  /** Where a saved server named by id is (the caller's own only). */
  repository: Pick<TChecksRepository, 'findOwnSshServer'>;
}

/** What the wizard checks: a domain against a typed address, or a saved server's. */
export interface TDnsCheckInput {
  domain: string;
  serverIp?: string;
  sshServerId?: string;
}

export type TDnsService = ReturnType<typeof createDnsService>;

/** c-ares error codes and the plain-words message each one becomes. */
function failureMessage(code: string | undefined, domain: string, expectedIp: string): TMessage {
  switch (code) {
    case 'ENOTFOUND':
      return { key: 'checks.dns.notFound', params: { domain, expectedIp } };
    case 'ENODATA':
      return { key: 'checks.dns.noARecord', params: { domain, expectedIp } };
    case 'ETIMEOUT':
      return { key: 'checks.dns.timeout', params: { domain } };
    default:
      return { key: 'checks.dns.unavailable', params: { domain } };
  }
}

export function createDnsService(options: TDnsServiceOptions) {
  const servers = options.servers;
  const resolverOptions = {
    timeoutMs: options.timeoutMs ?? DNS_TIMEOUT_MS,
    tries: options.tries ?? DNS_TRIES,
  };

  return {
    /** The check for a request: the saved server's address when one is named (404 if not own). */
    async checkFor(userId: string, input: TDnsCheckInput): Promise<TDnsCheck> {
      if (input.sshServerId === undefined) return this.check(input.domain, input.serverIp!);
      const server = await options.repository.findOwnSshServer(userId, input.sshServerId);
      if (!server) throw new AppError('not_found', 404);
      return this.check(input.domain, server.host);
    },

    /** The A records of `domain` (already allowlist-validated) compared with the server's IP. */
    async check(domain: string, expectedIp: string): Promise<TDnsCheck> {
      // A resolver per lookup: cancel() or a slow server never affects another request.
      const resolver = dnsResolver(servers, resolverOptions);
      let resolvedIps: string[];
      try {
        resolvedIps = await resolver.resolve4(domain);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        return {
          isValid: false,
          resolvedIps: [],
          expectedIp,
          error: failureMessage(code, domain, expectedIp),
        };
      }
      resolvedIps = [...new Set(resolvedIps)].sort();
      if (resolvedIps.includes(expectedIp)) {
        return { isValid: true, resolvedIps, expectedIp, error: null };
      }
      if (resolvedIps.length === 0) {
        return {
          isValid: false,
          resolvedIps,
          expectedIp,
          error: failureMessage('ENODATA', domain, expectedIp),
        };
      }
      return {
        isValid: false,
        resolvedIps,
        expectedIp,
        error: {
          key: 'checks.dns.pointsElsewhere',
          params: { domain, expectedIp, addresses: resolvedIps.join(', ') },
        },
      };
    },
  };
}
