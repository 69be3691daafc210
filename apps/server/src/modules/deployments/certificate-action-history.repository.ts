import type { TCertificateAction } from '@portico/shared/certificates/schemas';
import { and, countDistinct, desc, eq, gt, inArray, type SQL, sql } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { deploymentLogs, deployments, type TDeploymentRow } from '../../db/schema';

export type TCertificateActionHistory = ReturnType<typeof createCertificateActionHistory>;

/** The lines that say a run obtained a certificate: a deployment's, a forced renewal's. */
const ISSUED_KEYS = ['deployLog.certificate.obtained', 'deployLog.certAction.renewed'];

/** The runs that are certificate actions (a forced renewal, a renewal's dry run). */
const ACTION_TRIGGERS = ['renew_test', 'renew'] as const;

/** A window back from the database's clock, so every instance counts against the same time. */
const since = (windowMs: number) => sql`now() - make_interval(secs => ${windowMs / 1000})`;

/** What the history asks of the proxies module (services.ts hands its reads over). */
export interface THistoryProxyReads {
  runStartsOfOwner(
    ownerId: string,
    recent: SQL | undefined,
    limit: number,
  ): Promise<{ at: Date }[]>;
}

/**
 * The certificate actions Portico ran (its runs, durable and shared by every instance on the
 * database), counted for their limits, and the certificates its runs obtained.
 */
export function createCertificateActionHistory(
  db: TDb,
  proxiesOver: (db: TDb) => THistoryProxyReads,
) {
  const proxies = proxiesOver(db);
  return {
    /** The latest certificate action of each proxy (the certificates' screens). */
    async latestActionsOf(configurationIds: string[]): Promise<Map<string, TDeploymentRow>> {
      const latest = new Map<string, TDeploymentRow>();
      if (configurationIds.length === 0) return latest;
      const rows = await db
        .select()
        .from(deployments)
        .where(
          and(
            inArray(deployments.configurationId, configurationIds),
            inArray(deployments.trigger, [...ACTION_TRIGGERS]),
          ),
        )
        .orderBy(desc(deployments.createdAt));
      for (const row of rows) {
        if (!latest.has(row.configurationId)) latest.set(row.configurationId, row);
      }
      return latest;
    },

    /**
     * Holds the account's actions still until the transaction ends: two requests for the
     * same account, on any instance, count one after the other.
     */
    async lockAccount(ownerId: string): Promise<void> {
      await db.execute(
        sql`select pg_advisory_xact_lock(hashtextextended(${`portico-cert-actions:${ownerId}`}, 0))`,
      );
    },

    /**
     * When the latest `limit` runs of `action` in the window started, newest first: of the
     * proxy, or of every proxy the account owns.
     */
    async startedWithin(
      of: { configurationId: string } | { ownerId: string },
      action: TCertificateAction,
      windowMs: number,
      limit: number,
    ): Promise<Date[]> {
      const recent = and(
        eq(deployments.trigger, action),
        gt(deployments.createdAt, since(windowMs)),
      );
      const rows =
        'configurationId' in of
          ? await db
              .select({ at: deployments.createdAt })
              .from(deployments)
              .where(and(eq(deployments.configurationId, of.configurationId), recent))
              .orderBy(desc(deployments.createdAt))
              .limit(limit)
          : await proxies.runStartsOfOwner(of.ownerId, recent, limit);
      return rows.map((row) => row.at);
    },

    /** How many of the proxy's runs in the window obtained a certificate. */
    async issuedWithin(configurationId: string, windowMs: number): Promise<number> {
      const rows = await db
        .select({ runs: countDistinct(deploymentLogs.deploymentId) })
        .from(deployments)
        .innerJoin(
          deploymentLogs,
          and(
            eq(deploymentLogs.configurationId, configurationId),
            eq(deploymentLogs.deploymentId, deployments.id),
          ),
        )
        .where(
          and(
            eq(deployments.configurationId, configurationId),
            gt(deployments.createdAt, since(windowMs)),
            inArray(sql<string>`${deploymentLogs.text}->>'key'`, ISSUED_KEYS),
          ),
        );
      return Number(rows[0]?.runs ?? 0);
    },
  };
}
