import type { TLanguage } from '@portico/shared/api-error';
import type {
  TCustomCertificate,
  TCustomCertificateInput,
} from '@portico/shared/certificates/custom';
import {
  DUPLICATE_CERTIFICATE_LIMIT,
  type TAttentionPage,
  type TAttentionQuery,
  type TAttentionRow,
  type TCertificateStatus,
  type TCertificateSummary,
} from '@portico/shared/certificates/schemas';
import { asksForPage, PAGE_LIMIT_DEFAULT } from '@portico/shared/lists/page';
import type { TCustomCertificateRow, TDeploymentRow } from '../../db/schema';
import { AppError, KeyedAppError } from '../../lib/app-error';
import type { TCertificateActionHistory } from '../deployments/certificate-action-history.repository';
import { actionHold } from '../deployments/certificate-action-limits';
import type { TActor, TProxiesService } from '../proxies/proxies.service';
import { refuseAdopted } from '../proxies/proxy-errors';
import { attentionReasons, statusView, summaryOf } from './certificate-view';
import type { TCertificatesRepository, TWatchedWithOwner } from './certificates.repository';
import { checkCustomCertificate } from './custom-certificate-check';
import { customCertificateKeyAad } from './custom-certificate-secret';
import type { TCustomCertificatesRepository } from './custom-certificates.repository';

export type TCertificatesService = ReturnType<typeof createCertificatesService>;

const DAY = 24 * 3_600_000;

export function createCertificatesService(deps: {
  repository: TCertificatesRepository;
  proxies: Pick<TProxiesService, 'load' | 'listMine'>;
  /** The proxy's certificate actions and issues as its runs recorded them. */
  history: TCertificateActionHistory;
  /** Queues one live check of the proxy (the on-demand job). */
  queueCheck: (configurationId: string) => Promise<void>;
  custom: TCustomCertificatesRepository;
  /** Seals a secret with the instance's key file (lib/secrets). */
  encrypt: (plaintext: string, aad: string) => string;
  now: () => Date;
}) {
  const { repository } = deps;

  return {
    /**
     * The caller's proxies that serve HTTPS, each with its certificate's state; given `ids` (a
     * page of the list), only those of them.
     */
    async summaries(
      actor: TActor,
      language: TLanguage,
      ids?: string[],
    ): Promise<(TCertificateSummary & { configurationId: string })[]> {
      const rows = ids
        ? await repository.findManyOwned(actor.id, ids)
        : await repository.findMany(
            (await deps.proxies.listMine(actor, language))
              .filter((p) => p.sslConfigured)
              .map((p) => p.id),
          );
      const now = deps.now();
      return rows.flatMap((row) => {
        const summary = summaryOf(row, now);
        return summary ? [{ configurationId: row.configurationId, ...summary }] : [];
      });
    },

    async status(
      actor: TActor,
      configurationId: string,
      lang: TLanguage,
    ): Promise<TCertificateStatus> {
      const proxy = await deps.proxies.load(configurationId, actor);
      const row = await repository.find(proxy.id);
      const actions = await repository.latestActions([proxy.id]);
      const { days, max } = DUPLICATE_CERTIFICATE_LIMIT;
      const [renew, renewTest, issued] = await Promise.all([
        actionHold(deps.history, proxy, 'renew'),
        actionHold(deps.history, proxy, 'renew_test'),
        deps.history.issuedWithin(proxy.id, days * DAY),
      ]);
      const history = {
        held: { renew, renew_test: renewTest },
        recentlyIssued: { count: issued, days, max },
      };
      const uploaded = await deps.custom.find(proxy.id);
      const view = statusView(proxy, row ?? null, actions.get(proxy.id), history, deps.now(), lang);
      return { ...view, uploaded: uploaded ? customView(uploaded) : null };
    },

    /** Queues a live check now; the status says it is pending until it has run. */
    async requestCheck(actor: TActor, configurationId: string): Promise<void> {
      const proxy = await deps.proxies.load(configurationId, actor);
      if (!proxy.sslConfigured) throw new AppError('certificate_not_deployed', 409);
      await repository.requestCheck(proxy.id, deps.now());
      await deps.queueCheck(proxy.id);
    },

    /**
     * Stores the owner's own certificate for the proxy after its checks (custom-certificate-check):
     * the chain as given, the key sealed and never shown again. A refusal writes nothing.
     */
    async uploadCustom(
      actor: TActor,
      configurationId: string,
      input: TCustomCertificateInput,
    ): Promise<TCustomCertificate> {
      const proxy = await deps.proxies.load(configurationId, actor);
      // No Portico deployment serves an adopted site: an upload would never be served.
      refuseAdopted(proxy);
      const now = deps.now();
      const facts = checkCustomCertificate(input, proxy.domain, now);
      const row = {
        configurationId: proxy.id,
        chainPem: facts.chainPem,
        privateKeyEnc: deps.encrypt(facts.privateKeyPem, customCertificateKeyAad(proxy.id)),
        fingerprint: facts.fingerprint,
        notBefore: new Date(facts.notBefore),
        notAfter: new Date(facts.notAfter),
        issuer: facts.issuer,
        names: facts.names,
        uploadedAt: now,
      };
      await deps.custom.save(row);
      return customView(row);
    },

    /**
     * Forgets the owner's own certificate: the next deployment serves the CA's again and removes
     * the uploaded files from the server.
     */
    async removeCustom(actor: TActor, configurationId: string): Promise<void> {
      const proxy = await deps.proxies.load(configurationId, actor);
      if (!(await deps.custom.remove(proxy.id))) {
        throw new KeyedAppError('not_found', 404, 'certificates.upload.none');
      }
    },

    /**
     * Every user's certificates that need someone to look, most urgent first; given any list
     * parameter, one page of them, soonest end first (read a page at a time from the database).
     */
    async attention(query: TAttentionQuery = {}): Promise<TAttentionRow[] | TAttentionPage> {
      const now = deps.now();
      if (asksForPage(query)) {
        const page = await repository.attentionPage(
          { ...query, limit: query.limit ?? PAGE_LIMIT_DEFAULT },
          now,
        );
        const actions = await repository.latestActions(page.rows.map((w) => w.proxy.id));
        return {
          items: page.rows.flatMap((w) => attentionRow(w, actions.get(w.proxy.id), now) ?? []),
          nextCursor: page.nextCursor,
          total: page.total,
        };
      }
      const all = await repository.allWithOwners();
      const actions = await repository.latestActions(all.map((w) => w.proxy.id));
      const rows = all.flatMap((w) => attentionRow(w, actions.get(w.proxy.id), now) ?? []);
      const rank = { danger: 0, warning: 1, fine: 2 } as const;
      return rows.sort(
        (a, b) =>
          rank[a.state ?? 'fine'] - rank[b.state ?? 'fine'] ||
          (a.daysLeft ?? Number.POSITIVE_INFINITY) - (b.daysLeft ?? Number.POSITIVE_INFINITY) ||
          a.domain.localeCompare(b.domain),
      );
    },
  };
}

/** An uploaded certificate as its owner may see it: never the key. */
function customView(row: TCustomCertificateRow): TCustomCertificate {
  return {
    fingerprint: row.fingerprint,
    notBefore: row.notBefore.toISOString(),
    notAfter: row.notAfter.toISOString(),
    issuer: row.issuer,
    names: row.names,
    uploadedAt: row.uploadedAt.toISOString(),
  };
}

/** The admin's row of a certificate, or null when nothing about it needs attention. */
function attentionRow(
  { proxy, status, owner }: TWatchedWithOwner,
  lastAction: TDeploymentRow | undefined,
  now: Date,
): TAttentionRow | null {
  const reasons = attentionReasons(status, lastAction, now);
  if (reasons.length === 0) return null;
  const summary = summaryOf(status, now);
  return {
    configurationId: proxy.id,
    domain: proxy.domain,
    userId: owner.id,
    username: owner.username,
    email: owner.email,
    state: summary?.state ?? null,
    daysLeft: summary?.daysLeft ?? null,
    notAfter: summary?.notAfter ?? null,
    checkedAt: status?.lastCheck?.checkedAt ?? null,
    reasons,
  };
}
