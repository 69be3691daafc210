import {
  DNS_PROVIDERS,
  isWildcard,
  type TDnsChallengeInput,
  type TDnsChallengeView,
  ZDnsChallengeInput,
} from '@portico/shared/certificates/dns-challenge';
import {
  dnsProviderOffer,
  dnsProviderOffers,
  type TDnsProviderOffers,
} from '@portico/shared/certificates/dns-providers';
import type { TServerFacts } from '@portico/shared/ssh-servers/facts';
import type { TDnsChallengeRow } from '../../db/schema';
import type { TDnsChallenge } from '../../deploy/engine';
import { KeyedAppError } from '../../lib/app-error';
import type { TActor, TProxiesService } from '../proxies/proxies.service';
import { refuseAdopted } from '../proxies/proxy-errors';
import { dnsChallengeAad } from './dns-challenge-secret';
import type { TDnsChallengesRepository } from './dns-challenges.repository';

export type TDnsChallengeService = ReturnType<typeof createDnsChallengeService>;

/** Why stored credentials are not presented to the proxy's server. */
export class DnsCredentialsUnusableError extends Error {
  constructor() {
    super('DNS credentials not for this server, or not readable');
    this.name = 'DnsCredentialsUnusableError';
  }
}

/**
 * A proxy's certificate by DNS-01 (docs/PRODUCT.md#wildcards-and-dns-01): the provider and its
 * credentials, write-only and sealed for the proxy's server address; the next deployment uses
 * them. Removing them goes back to HTTP-01.
 */
export function createDnsChallengeService(deps: {
  repository: TDnsChallengesRepository;
  proxies: Pick<TProxiesService, 'load'>;
  /** The last check's facts of a saved server (null: never checked, or gone). */
  serverFacts: (sshServerId: string) => Promise<TServerFacts | null>;
  encrypt: (plaintext: string, aad: string) => string;
  decrypt: (ciphertext: string, aad: string) => string;
  now: () => Date;
}) {
  const { repository } = deps;
  const factsOf = (proxy: { sshServerId: string | null }) =>
    proxy.sshServerId ? deps.serverFacts(proxy.sshServerId) : Promise.resolve(null);
  return {
    /** The stored challenge (never the credentials), and which providers the server offers. */
    async view(
      actor: TActor,
      configurationId: string,
    ): Promise<{ dnsChallenge: TDnsChallengeView | null; providers: TDnsProviderOffers }> {
      const proxy = await deps.proxies.load(configurationId, actor);
      const [row, facts] = await Promise.all([repository.find(proxy.id), factsOf(proxy)]);
      return { dnsChallenge: row ? viewOf(row) : null, providers: dnsProviderOffers(facts) };
    },

    /** Stores the challenge (replacing the one before); a refusal writes nothing. */
    async save(
      actor: TActor,
      configurationId: string,
      input: TDnsChallengeInput,
    ): Promise<TDnsChallengeView> {
      const proxy = await deps.proxies.load(configurationId, actor);
      // No Portico deployment serves an adopted site: its certificate is not Portico's.
      refuseAdopted(proxy);
      const { credentials, includeApex } = ZDnsChallengeInput.parse(input);
      if (includeApex && !isWildcard(proxy.domain)) {
        throw new KeyedAppError('validation_failed', 400, 'certificates.dns.apexNeedsWildcard');
      }
      // The server's last check said its package manager lacks the plugin: the deployment
      // could only fail at installing it. (Unknown is let through: the engine finds out.)
      if (dnsProviderOffer(await factsOf(proxy), credentials.provider) === 'not_offered') {
        const { title, debianPackage } = DNS_PROVIDERS[credentials.provider];
        throw new KeyedAppError('validation_failed', 400, 'certificates.dns.providerNotOffered', {
          provider: title,
          package: debianPackage,
        });
      }
      const row: TDnsChallengeRow = {
        configurationId: proxy.id,
        provider: credentials.provider,
        includeApex,
        credentialsEnc: deps.encrypt(
          JSON.stringify(credentials),
          dnsChallengeAad(proxy.id, proxy.serverIp),
        ),
        serverIp: proxy.serverIp,
        updatedAt: deps.now(),
      };
      await repository.save(row);
      return viewOf(row);
    },

    /** Back to HTTP-01, which a wildcard cannot use. */
    async remove(actor: TActor, configurationId: string): Promise<void> {
      const proxy = await deps.proxies.load(configurationId, actor);
      if (isWildcard(proxy.domain)) {
        throw new KeyedAppError('conflict', 409, 'certificates.dns.wildcardNeedsDns');
      }
      if (!(await repository.remove(proxy.id))) {
        throw new KeyedAppError('not_found', 404, 'certificates.dns.none');
      }
    },

    /**
     * The challenge with its credentials unsealed, for a run on `serverIp` only; null without
     * one. Credentials entered for another address are not presented (DnsCredentialsUnusable).
     */
    async forRun(configurationId: string, serverIp: string): Promise<TDnsChallenge | null> {
      const row = await repository.find(configurationId);
      if (!row) return null;
      if (row.serverIp !== serverIp) throw new DnsCredentialsUnusableError();
      let credentials: TDnsChallenge['credentials'];
      try {
        credentials = JSON.parse(
          deps.decrypt(row.credentialsEnc, dnsChallengeAad(configurationId, serverIp)),
        );
      } catch {
        throw new DnsCredentialsUnusableError();
      }
      return { credentials, includeApex: row.includeApex };
    },
  };
}

function viewOf(row: TDnsChallengeRow): TDnsChallengeView {
  return {
    provider: row.provider as TDnsChallengeView['provider'],
    includeApex: row.includeApex,
    serverIp: row.serverIp,
    updatedAt: row.updatedAt.toISOString(),
  };
}
