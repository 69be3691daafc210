import type {
  TCertificateCheck,
  TCertificateFacts,
  TRenewalHealth,
  TServedCertificate,
} from '@portico/shared/certificates/schemas';
import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import { attentionPage } from '../../db/certificate-attention';
import type { TDb } from '../../db/client';
import type { TReadsOver } from '../../db/reads-over';
import {
  certificateStatus,
  type TAlertedState,
  type TCertificateStatusRow,
  type TDeploymentRow,
  type TProxyConfigurationRow,
} from '../../db/schema';

export type TCertificatesRepository = ReturnType<typeof createCertificatesRepository>;

/** A proxy the watch looks at, with what it knows of its certificate. */
export interface TWatched {
  proxy: TProxyConfigurationRow;
  status: TCertificateStatusRow | null;
}

export interface TWatchedWithOwner extends TWatched {
  owner: { id: string; username: string; email: string };
}

/** What the certificates ask of the proxies module (services.ts hands its reads over). */
export interface TCertificatesProxyReads {
  certificatesOwnedBy(userId: string, configurationIds: string[]): Promise<TCertificateStatusRow[]>;
  watched(configurationId?: string): Promise<TWatched[]>;
  watchedBatch(afterId: string | undefined, limit: number): Promise<TWatched[]>;
  httpsWithOwners(): Promise<TWatchedWithOwner[]>;
}

/** What the certificates ask of the deployments module (its certificate-action history). */
export interface TCertificatesHistoryReads {
  latestActionsOf(configurationIds: string[]): Promise<Map<string, TDeploymentRow>>;
}

/** The owners' reads the certificates ask, each built over a handle (services hand them over). */
export type TCertificatesReadsOver = TReadsOver<{
  proxies: TCertificatesProxyReads;
  history: TCertificatesHistoryReads;
}>;

/** `over` builds the owners' reads over the same handle as `db`. */
export function createCertificatesRepository(db: TDb, over: TCertificatesReadsOver) {
  const proxies = over.proxies(db);
  const history = over.history(db);
  /** Creates the row when missing, then applies `changes`. */
  async function upsert(configurationId: string, changes: Partial<TCertificateStatusRow>) {
    const values = { ...changes, updatedAt: new Date() };
    await db
      .insert(certificateStatus)
      .values({ configurationId, ...values })
      .onConflictDoUpdate({ target: certificateStatus.configurationId, set: values });
  }

  return {
    async find(configurationId: string): Promise<TCertificateStatusRow | undefined> {
      const rows = await db
        .select()
        .from(certificateStatus)
        .where(eq(certificateStatus.configurationId, configurationId))
        .limit(1);
      return rows[0];
    },

    async findMany(configurationIds: string[]): Promise<TCertificateStatusRow[]> {
      if (configurationIds.length === 0) return [];
      return db
        .select()
        .from(certificateStatus)
        .where(inArray(certificateStatus.configurationId, configurationIds));
    },

    /** The rows of those of `configurationIds` that are `userId`'s and serve HTTPS. */
    async findManyOwned(
      userId: string,
      configurationIds: string[],
    ): Promise<TCertificateStatusRow[]> {
      if (configurationIds.length === 0) return [];
      return proxies.certificatesOwnedBy(userId, configurationIds);
    },

    /** Proxies whose site serves HTTPS and no run is changing right now. */
    async watched(configurationId?: string): Promise<TWatched[]> {
      return proxies.watched(configurationId);
    },

    /** The sweep's next batch: proxies `watched` would give, in id order after `afterId`. */
    async watchedBatch(afterId: string | undefined, limit: number): Promise<TWatched[]> {
      return proxies.watchedBatch(afterId, limit);
    },

    /** Every HTTPS proxy with its owner (the admin's list). */
    async allWithOwners(): Promise<TWatchedWithOwner[]> {
      return proxies.httpsWithOwners();
    },

    /** A page of the HTTPS proxies that need attention, with their owners (db/certificate-attention.ts). */
    async attentionPage(query: { q?: string; cursor?: string; limit: number }, now: Date) {
      return attentionPage(db, query, now);
    },

    async requestCheck(configurationId: string, at: Date): Promise<void> {
      await upsert(configurationId, { checkRequestedAt: at });
    },

    /**
     * A finished check. The served certificate is replaced only when one was served; a request
     * made before the check started is answered by it.
     */
    async recordCheck(
      configurationId: string,
      result: { check: TCertificateCheck; served: TServedCertificate | null; startedAt: Date },
    ): Promise<TCertificateStatusRow> {
      await upsert(configurationId, {
        lastCheck: result.check,
        ...(result.served ? { served: result.served } : {}),
      });
      await db
        .update(certificateStatus)
        .set({ checkRequestedAt: null })
        .where(
          and(
            eq(certificateStatus.configurationId, configurationId),
            lte(certificateStatus.checkRequestedAt, result.startedAt),
          ),
        );
      return (await this.find(configurationId))!;
    },

    async recordOnServer(configurationId: string, facts: TCertificateFacts, at: Date) {
      await upsert(configurationId, { onServer: { ...facts, readAt: at.toISOString() } });
    },

    async recordRenewal(configurationId: string, renewal: TRenewalHealth) {
      await upsert(configurationId, { renewal });
    },

    /**
     * Moves the alerted state from `previous` to `next` only if nobody else did first (another
     * instance checking the same proxy): true for the one caller that sends the alert.
     */
    async claimAlerted(
      configurationId: string,
      previous: TAlertedState,
      next: TAlertedState,
    ): Promise<boolean> {
      const rows = await db
        .update(certificateStatus)
        .set({ alerted: next })
        .where(
          and(
            eq(certificateStatus.configurationId, configurationId),
            sql`${certificateStatus.alerted} = ${JSON.stringify(previous)}::jsonb`,
          ),
        )
        .returning({ id: certificateStatus.configurationId });
      return rows.length === 1;
    },

    /** The latest certificate action of each proxy. */
    async latestActions(configurationIds: string[]): Promise<Map<string, TDeploymentRow>> {
      return history.latestActionsOf(configurationIds);
    },
  };
}
