import { type TProxyListQuery, ZUuid } from '@portico/shared/proxy/api';
import type { TProxyOptions } from '@portico/shared/proxy/options';
import {
  and,
  eq,
  getTableColumns,
  inArray,
  lt,
  ne,
  notExists,
  type SQLWrapper,
  sql,
} from 'drizzle-orm';
import { readsByKey } from '../../db/batched-reads';
import { builtOnce } from '../../db/built-once';
import type { TDb } from '../../db/client';
import { proxyPage, type TKeptProxyListCounts } from '../../db/proxy-lists';
import {
  deployments,
  proxyConfigurations,
  type TNewProxyConfigurationRow,
  type TProxyConfigurationRow,
  wildcardCertificateUses,
} from '../../db/schema';
import { violatedConstraint } from '../../db/unique-violation';
import { auditInsertFrom, auditPlaceholdersOf, type TNewAuditRow } from '../audit/audit.repository';
import { createWholeListReads } from './proxy-whole-list.repository';

export type TProxiesRepository = ReturnType<typeof createProxiesRepository>;

export class DomainTakenError extends Error {
  constructor() {
    super('domain taken');
    this.name = 'DomainTakenError';
  }
}

/** Runs a write, turning the unique domain index's refusal into `DomainTakenError`. */
async function domainGuarded<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (violatedConstraint(error) === 'proxy_configurations_domain_key') {
      throw new DomainTakenError();
    }
    throw error;
  }
}

export type TProxyChanges = Partial<Omit<TNewProxyConfigurationRow, 'id' | 'userId' | 'createdAt'>>;

/** What the edit dialog changes: its fields, its saved server, and what moving forgets. */
export interface TProxyEdit {
  domain: string;
  targetServer: string;
  serverIp: string;
  sshUser: string;
  sshPort: number;
  /** The options to store (the stored ones again when the edit sent none). */
  options: TProxyOptions;
  /** The saved server it is on now (another one when moved; null when none). */
  sshServerId: string | null;
  /** The pinned host key goes (another server)... */
  forgetHostKey: boolean;
  /** ...replaced by this one (the saved server's pin) or none. */
  pinnedHostKey: string | null;
  /** The saved password goes (no longer the server, port and user it was entered for). */
  forgetPassword: boolean;
}

/**
 * `batchReads`: the app's shared repository asks for the rows of all the requests waiting at
 * once.
 */
export function createProxiesRepository(
  db: TDb,
  {
    batchReads = false,
    listCounts,
  }: { batchReads?: boolean; listCounts?: TKeptProxyListCounts } = {},
) {
  // The reads behind the screens every user opens: built at first use, prepared once per
  // connection, and batched in the app's shared repository (db/batched-reads.ts).
  const byIds = builtOnce(() =>
    db
      .select()
      .from(proxyConfigurations)
      .where(sql`${proxyConfigurations.id} = any(${sql.placeholder('ids')}::uuid[])`)
      .prepare('proxies_by_ids'),
  );
  const findById = readsByKey(
    async (ids: string[]) => {
      // One id that is no uuid would fail the cast, and with it every request of the batch.
      const uuids = ids.filter((id) => ZUuid.safeParse(id).success);
      const rows = uuids.length > 0 ? await byIds().execute({ ids: uuids }) : [];
      return new Map(rows.map((row) => [row.id, row]));
    },
    { batched: batchReads },
  );

  // The edit and its audit row in one statement, prepared once: as atomic as a transaction, in
  // one round trip instead of four (begin, update, insert, commit), and not built again for each
  // edit (building it through drizzle costs more than the round trips it saves).
  const editStatement = builtOnce(() => {
    const p = proxyConfigurations;
    const forgetting = (name: string, column: SQLWrapper) =>
      sql`case when ${sql.placeholder(name)}::boolean then null else ${column} end`;
    const update = db
      .update(p)
      .set({
        domain: sql`${sql.placeholder('domain')}::text`,
        targetServer: sql`${sql.placeholder('targetServer')}::text`,
        serverIp: sql`${sql.placeholder('serverIp')}::text`,
        sshUser: sql`${sql.placeholder('sshUser')}::text`,
        sshPort: sql`${sql.placeholder('sshPort')}::integer`,
        options: sql`${sql.placeholder('options')}::jsonb`,
        sshServerId: sql`${sql.placeholder('sshServerId')}::uuid`,
        hostKeyFingerprint: sql`case when ${sql.placeholder('forgetHostKey')}::boolean then ${sql.placeholder('pinnedHostKey')}::text else ${p.hostKeyFingerprint} end`,
        sshPasswordEnc: forgetting('forgetPassword', p.sshPasswordEnc),
        sshPasswordTarget: forgetting('forgetPassword', p.sshPasswordTarget),
        updatedAt: sql`${sql.placeholder('updatedAt')}::timestamptz`,
      })
      .where(and(eq(p.id, sql.placeholder('id')), ne(p.status, 'deploying')))
      .returning();
    const written = db.$with('written', getTableColumns(p)).as(update.getSQL());
    const recorded = db.$with('recorded', {}).as(auditInsertFrom('written'));
    return db.with(written, recorded).select().from(written).prepare('proxy_edit');
  });

  /** The other configuration (any owner) that uses the domain, and whose it is. */
  async function domainHolder(
    domain: string,
    excludeId?: string,
  ): Promise<{ id: string; userId: string } | undefined> {
    const rows = await db
      .select({ id: proxyConfigurations.id, userId: proxyConfigurations.userId })
      .from(proxyConfigurations)
      .where(
        and(
          sql`lower(${proxyConfigurations.domain}) = ${domain.toLowerCase()}`,
          excludeId ? ne(proxyConfigurations.id, excludeId) : undefined,
        ),
      )
      .limit(1);
    return rows[0];
  }

  return {
    ...createWholeListReads(db, { batchReads }),

    async findById(id: string): Promise<TProxyConfigurationRow | undefined> {
      return findById(id.toLowerCase());
    },

    /** One page of the user's list (db/proxy-lists.ts), with its counts. */
    async pageByUser(userId: string, query: TProxyListQuery & { limit: number }, now: Date) {
      const p = proxyConfigurations;
      const scope = { where: eq(p.userId, userId), key: `user ${userId}` };
      return proxyPage(
        db,
        scope,
        query,
        now,
        (plan) =>
          db
            .select({ ...getTableColumns(p), key: plan.key })
            .from(p)
            .where(plan.where)
            .orderBy(...plan.orderBy)
            .limit(plan.limit),
        listCounts,
      );
    },

    /** Whether another configuration (any owner) already uses the domain. */
    async domainTaken(domain: string, excludeId?: string): Promise<boolean> {
      return (await domainHolder(domain, excludeId)) !== undefined;
    },

    domainHolder,

    /**
     * The domains of (at most `limit`) proxies served with this proxy's wildcard certificate:
     * the holder's index, then each row by its key.
     */
    async wildcardUsers(holderId: string, limit = 5): Promise<string[]> {
      const rows = await db
        .select({ domain: proxyConfigurations.domain })
        .from(wildcardCertificateUses)
        .innerJoin(
          proxyConfigurations,
          eq(proxyConfigurations.id, wildcardCertificateUses.configurationId),
        )
        .where(eq(wildcardCertificateUses.holderId, holderId))
        .orderBy(wildcardCertificateUses.configurationId)
        .limit(limit);
      return rows.map((r) => r.domain);
    },

    async insert(row: TNewProxyConfigurationRow): Promise<TProxyConfigurationRow> {
      return domainGuarded(async () => {
        const rows = await db.insert(proxyConfigurations).values(row).returning();
        return rows[0]!;
      });
    },

    async update(id: string, changes: TProxyChanges): Promise<TProxyConfigurationRow | undefined> {
      return domainGuarded(async () => {
        const rows = await db
          .update(proxyConfigurations)
          .set({ ...changes, updatedAt: new Date() })
          .where(eq(proxyConfigurations.id, id))
          .returning();
        return rows[0];
      });
    },

    /** Stores a custom script on the owner's own configuration; false when it is not theirs. */
    async saveCustomScript(userId: string, id: string, script: { name: string; content: string }) {
      const rows = await db
        .update(proxyConfigurations)
        .set({ customScriptName: script.name, customScript: script.content, updatedAt: new Date() })
        .where(and(eq(proxyConfigurations.id, id), eq(proxyConfigurations.userId, userId)))
        .returning({ id: proxyConfigurations.id });
      return rows.length > 0;
    },

    /** Changes the row only when it is not deploying: the one-run-at-a-time gate. */
    async updateUnlessDeploying(
      id: string,
      changes: TProxyChanges,
    ): Promise<TProxyConfigurationRow | undefined> {
      return domainGuarded(async () => {
        const rows = await db
          .update(proxyConfigurations)
          .set({ ...changes, updatedAt: new Date() })
          .where(and(eq(proxyConfigurations.id, id), ne(proxyConfigurations.status, 'deploying')))
          .returning();
        return rows[0];
      });
    },

    /**
     * The edit dialog's change, unless the row is deploying, with its audit row: both or neither.
     * Undefined (nothing written) when the row is deploying or gone.
     */
    async edit(
      id: string,
      edit: TProxyEdit,
      audit: TNewAuditRow,
    ): Promise<TProxyConfigurationRow | undefined> {
      return domainGuarded(async () => {
        const rows = await editStatement().execute({
          ...edit,
          // As text: each driver sends a string as it is, while objects they serialise each their way.
          options: JSON.stringify(edit.options),
          id,
          updatedAt: new Date().toISOString(),
          ...auditPlaceholdersOf(audit),
        });
        return rows[0];
      });
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
