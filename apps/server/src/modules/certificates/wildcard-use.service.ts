import {
  coveringWildcard,
  type TWildcardCertificate,
  type TWildcardChoices,
  type TWildcardOffer,
  type TWildcardOfferQuery,
  type TWildcardUseInput,
  wildcardCovers,
} from '@portico/shared/certificates/wildcard-use';
import type { TSharedWildcard } from '../../deploy/engine';
import { AppError, KeyedAppError } from '../../lib/app-error';
import type { TActor, TProxiesService } from '../proxies/proxies.service';
import { refuseAdopted } from '../proxies/proxy-errors';
import type { TWildcardHolder, TWildcardUsesRepository } from '../proxies/wildcard-uses.repository';
import type { TCustomCertificatesRepository } from './custom-certificates.repository';

export type TWildcardUseService = ReturnType<typeof createWildcardUseService>;

/** Why a proxy's run cannot be served with the wildcard it was set to use. */
export class WildcardUnusableError extends Error {
  constructor() {
    super('the wildcard certificate is not on the proxy server');
    this.name = 'WildcardUnusableError';
  }
}

function viewOf(holder: TWildcardHolder): TWildcardCertificate {
  return {
    holderId: holder.id,
    domain: holder.domain,
    expiresAt: holder.certificateExpiresAt?.toISOString() ?? null,
  };
}

/**
 * A proxy served with the wildcard certificate another proxy of its owner holds on the same
 * server (docs/PRODUCT.md#certificates): the holder's certbot lineage serves it, and the
 * holder's renewals renew it. A refusal writes nothing.
 */
export function createWildcardUseService(deps: {
  repository: TWildcardUsesRepository;
  proxies: Pick<TProxiesService, 'load'>;
  custom: Pick<TCustomCertificatesRepository, 'find'>;
  now: () => Date;
}) {
  const { repository } = deps;

  /** Served by DNS-01 on its server, its certificate not expired. */
  function live(holder: TWildcardHolder): boolean {
    const expiresAt = holder.certificateExpiresAt;
    return holder.byDns && holder.sslConfigured && expiresAt !== null && expiresAt > deps.now();
  }

  /** The owner's served wildcard on `serverIp` covering `domain` (the unique domain index). */
  async function offerFor(
    userId: string,
    domain: string,
    serverIp: string,
  ): Promise<TWildcardCertificate[]> {
    const wildcard = coveringWildcard(domain);
    const holder = wildcard ? await repository.holderNamed(wildcard, userId) : undefined;
    return holder && holder.serverIp === serverIp && live(holder) ? [viewOf(holder)] : [];
  }

  return {
    /** The wildcard the proxy uses, and the one of its server that could serve it. */
    async choices(actor: TActor, configurationId: string): Promise<TWildcardChoices> {
      const proxy = await deps.proxies.load(configurationId, actor);
      const current = await repository.find(proxy.id);
      return {
        current: current ? viewOf(current) : null,
        available: await offerFor(proxy.userId, proxy.domain, proxy.serverIp),
      };
    },

    /** The caller's own wildcard that could serve `domain` on `serverIp` (the wizard's offer). */
    async offer(actor: TActor, query: TWildcardOfferQuery): Promise<TWildcardOffer> {
      return { available: await offerFor(actor.id, query.domain, query.serverIp) };
    },

    async use(
      actor: TActor,
      configurationId: string,
      input: TWildcardUseInput,
    ): Promise<TWildcardChoices> {
      const proxy = await deps.proxies.load(configurationId, actor);
      refuseAdopted(proxy);
      const holder = await repository.holder(input.holderId);
      // Another owner's proxy is as unknown as a missing one.
      if (!holder || holder.userId !== proxy.userId) throw new AppError('not_found', 404);
      const names = { domain: proxy.domain, wildcard: holder.domain };
      if (holder.id === proxy.id || !wildcardCovers(holder.domain, proxy.domain)) {
        throw new KeyedAppError(
          'validation_failed',
          400,
          'certificates.wildcard.notCovered',
          names,
        );
      }
      if (holder.serverIp !== proxy.serverIp) {
        throw new KeyedAppError('conflict', 409, 'certificates.wildcard.otherServer', {
          ...names,
          serverIp: holder.serverIp,
        });
      }
      if (!live(holder)) {
        throw new KeyedAppError('conflict', 409, 'certificates.wildcard.notLive', names);
      }
      if (await deps.custom.find(proxy.id)) {
        throw new KeyedAppError('conflict', 409, 'certificates.wildcard.uploaded');
      }
      await repository.save(proxy.id, holder.id);
      return { current: viewOf(holder), available: [viewOf(holder)] };
    },

    /** Back to a certificate of its own (certbot's, by HTTP-01 or the proxy's DNS challenge). */
    async remove(actor: TActor, configurationId: string): Promise<void> {
      const proxy = await deps.proxies.load(configurationId, actor);
      if (!(await repository.remove(proxy.id))) {
        throw new KeyedAppError('not_found', 404, 'certificates.wildcard.none');
      }
    },

    /** The holder's wildcard when the proxy uses one (a certificate action is refused). */
    async usedBy(configurationId: string): Promise<string | null> {
      return (await repository.find(configurationId))?.domain ?? null;
    },

    /**
     * The wildcard a run on `serverIp` serves the proxy with; null when it uses none. A holder
     * moved to another server since (refused while used, so only by hand) cannot serve it.
     */
    async forRun(configurationId: string, serverIp: string): Promise<TSharedWildcard | null> {
      const holder = await repository.find(configurationId);
      if (!holder) return null;
      if (holder.serverIp !== serverIp) throw new WildcardUnusableError();
      return { domain: holder.domain };
    },
  };
}
