import { and, desc, eq, inArray, lt, ne, notExists, sql } from 'drizzle-orm';
import { builtOnce } from '../../db/built-once';
import type { TDb } from '../../db/client';
import {
  deployments,
  proxyConfigurations,
  type TNewProxyConfigurationRow,
  type TProxyConfigurationRow,
} from '../../db/schema';
import { violatedConstraint } from '../../db/unique-violation';

export type TProxiesRepository = ReturnType<typeof createProxiesRepository>;

export class DomainTakenError extends Error {
  constructor() {
    super('domain taken');
    this.name = 'DomainTakenError';
  }
}

function isDomainViolation(error: unknown): boolean {
  return violatedConstraint(error) === 'proxy_configurations_domain_key';
}

export type TProxyChanges = Partial<Omit<TNewProxyConfigurationRow, 'id' | 'userId' | 'createdAt'>>;

export function createProxiesRepository(db: TDb) {
  // The reads behind the screens every user opens: built at first use, prepared once per
  // connection.
  const byId = builtOnce(() =>
    db
      .select()
      .from(proxyConfigurations)
      .where(eq(proxyConfigurations.id, sql.placeholder('id')))
      .limit(1)
      .prepare('proxy_by_id'),
  );
  const byUser = builtOnce(() =>
    db
      .select()
      .from(proxyConfigurations)
      .where(eq(proxyConfigurations.userId, sql.placeholder('userId')))
      .orderBy(desc(proxyConfigurations.createdAt), desc(proxyConfigurations.id))
      .prepare('proxies_by_user'),
  );

  return {
    async findById(id: string): Promise<TProxyConfigurationRow | undefined> {
      return (await byId().execute({ id }))[0];
    },

    async listByUser(userId: string): Promise<TProxyConfigurationRow[]> {
      return byUser().execute({ userId });
    },

    /** Whether another configuration (any owner) already uses the domain. */
    async domainTaken(domain: string, excludeId?: string): Promise<boolean> {
      const rows = await db
        .select({ id: proxyConfigurations.id })
        .from(proxyConfigurations)
        .where(
          and(
            sql`lower(${proxyConfigurations.domain}) = ${domain.toLowerCase()}`,
            excludeId ? ne(proxyConfigurations.id, excludeId) : undefined,
          ),
        )
        .limit(1);
      return rows.length > 0;
    },

    async insert(row: TNewProxyConfigurationRow): Promise<TProxyConfigurationRow> {
      try {
        const rows = await db.insert(proxyConfigurations).values(row).returning();
        return rows[0]!;
      } catch (error) {
        if (isDomainViolation(error)) throw new DomainTakenError();
        throw error;
      }
    },

    async update(id: string, changes: TProxyChanges): Promise<TProxyConfigurationRow | undefined> {
      try {
        const rows = await db
          .update(proxyConfigurations)
          .set({ ...changes, updatedAt: new Date() })
          .where(eq(proxyConfigurations.id, id))
          .returning();
        return rows[0];
      } catch (error) {
        if (isDomainViolation(error)) throw new DomainTakenError();
        throw error;
      }
    },

    /** Changes the row only when it is not deploying: the one-run-at-a-time gate. */
    async updateUnlessDeploying(
      id: string,
      changes: TProxyChanges,
    ): Promise<TProxyConfigurationRow | undefined> {
      try {
        const rows = await db
          .update(proxyConfigurations)
          .set({ ...changes, updatedAt: new Date() })
          .where(and(eq(proxyConfigurations.id, id), ne(proxyConfigurations.status, 'deploying')))
          .returning();
        return rows[0];
      } catch (error) {
        if (isDomainViolation(error)) throw new DomainTakenError();
        throw error;
      }
    },

    /**
     * Rows marked deploying, last changed before `before`, with no queued or running run: the
     * request that claimed them died before it recorded its run.
     */
    async deployingWithoutRun(before: Date): Promise<TProxyConfigurationRow[]> {
      const unfinishedRun = db
        .select({ id: deployments.id })
        .from(deployments)
        .where(
          and(
            eq(deployments.configurationId, proxyConfigurations.id),
            inArray(deployments.status, ['queued', 'running']),
          ),
        );
      return db
        .select()
        .from(proxyConfigurations)
        .where(
          and(
            eq(proxyConfigurations.status, 'deploying'),
            lt(proxyConfigurations.updatedAt, before),
            notExists(unfinishedRun),
          ),
        );
    },

    async remove(id: string): Promise<void> {
      await db.delete(proxyConfigurations).where(eq(proxyConfigurations.id, id));
    },
  };
}
