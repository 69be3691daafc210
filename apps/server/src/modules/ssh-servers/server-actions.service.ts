import type { TLanguage } from '@portico/shared/api-error';
import type { TText } from '@portico/shared/i18n/text';
import type {
  TDeleteServerWithSitesReport,
  TServerActionResult,
} from '@portico/shared/ssh-servers/schemas';
import { AppError } from '../../lib/app-error';
import { loadServer, type TActor } from './server-access';
import type { TSshServersRepository } from './ssh-servers.repository';
import type { TSshServersService } from './ssh-servers.service';

/** Proxies are read this many at a time: an action on a busy server stays a bounded query. */
const BATCH = 200;

/**
 * What the action reuses, given by services.ts (modules do not import each other): the proxy
 * delete with its removal rules.
 */
export interface TServerActionsDeps {
  repository: TSshServersRepository;
  servers: Pick<TSshServersService, 'remove'>;
  /** 409 while a background run (redeploy all, check all) goes through the same proxies. */
  refuseWhileRunning(serverId: string): Promise<void>;
  removeProxy(
    actor: TActor,
    proxyId: string,
    options: { removeFromServer: true; removeCertificate: boolean; language: TLanguage },
  ): Promise<unknown>;
}

export type TServerActionsService = ReturnType<typeof createServerActionsService>;

/** A refusal as the page shows it; an unexpected failure only as "something went wrong". */
export function refusalText(error: unknown): TText {
  if (error instanceof AppError) {
    return { key: error.messageKey, params: error.params as Record<string, TText> };
  }
  return { key: 'errors.serverError' };
}

/**
 * "Delete with their sites" of one saved server: goes through every proxy on the server one
 * after another, never stops on a failure, and reports each. ("Redeploy all" and "check all
 * certificates" are background runs: server-runs.service.ts.)
 */
export function createServerActionsService(deps: TServerActionsDeps) {
  const { repository } = deps;

  async function eachProxy(
    actor: TActor,
    id: string,
    work: (proxyId: string) => Promise<string | null>,
  ): Promise<TServerActionResult[]> {
    await loadServer(repository, actor, id);
    const results: TServerActionResult[] = [];
    for (let after: string | undefined; ; ) {
      const batch = await repository.proxiesOn(id, after, BATCH);
      for (const proxy of batch) {
        try {
          const deploymentId = await work(proxy.id);
          results.push({ ...proxy, ok: true, deploymentId, text: null });
        } catch (error) {
          results.push({ ...proxy, ok: false, deploymentId: null, text: refusalText(error) });
        }
      }
      if (batch.length < BATCH) return results;
      after = batch.at(-1)!.id;
    }
  }

  return {
    /**
     * Each proxy deleted with its site removed from the server, as a proxy delete does (a proxy
     * whose removal fails stays, with why); the server goes once none is left.
     */
    async deleteWithSites(
      actor: TActor,
      id: string,
      options: { removeCertificates: boolean; language: TLanguage },
    ): Promise<TDeleteServerWithSitesReport> {
      await loadServer(repository, actor, id);
      await deps.refuseWhileRunning(id);
      const results = await eachProxy(actor, id, async (proxyId) => {
        await deps.removeProxy(actor, proxyId, {
          removeFromServer: true,
          removeCertificate: options.removeCertificates,
          language: options.language,
        });
        return null;
      });
      if (results.some((r) => !r.ok)) return { deleted: false, results };
      await deps.servers.remove(actor, id);
      return { deleted: true, results };
    },
  };
}
