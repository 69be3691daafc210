import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import {
  proxyConfigurations,
  sshServers,
  type TNewProxyConfigurationRow,
  type TNewSshServerRow,
  type TProxyConfigurationRow,
  type TSshServerRow,
} from '../../db/schema';
import { violatedConstraint } from '../../db/unique-violation';

export type TTransferRepository = ReturnType<typeof createTransferRepository>;

/** Rows an export reads at a time, and an import writes per statement. */
export const TRANSFER_BATCH = 500;

export class ImportDomainTakenError extends Error {
  constructor() {
    super('domain taken');
    this.name = 'ImportDomainTakenError';
  }
}

/** Where a walk stopped: the last row's creation time (as text, to the microsecond) and id. */
type TAfter = { key: string; id: string } | undefined;

/**
 * One account's rows oldest first, a batch at a time after `after`, over the (user, created, id)
 * index each table already has for its lists.
 */
function batchAfter<T extends typeof sshServers | typeof proxyConfigurations>(table: T) {
  return (db: TDb, userId: string, after: TAfter) =>
    db
      .select({ row: table, key: sql<string>`${table.createdAt}::text` })
      .from(table as typeof sshServers)
      .where(
        and(
          eq(table.userId, userId),
          after
            ? sql`(${table.createdAt}, ${table.id}) > (${after.key}::timestamptz, ${after.id}::uuid)`
            : undefined,
        ),
      )
      .orderBy(asc(table.createdAt), asc(table.id))
      .limit(TRANSFER_BATCH);
}

const serversAfter = batchAfter(sshServers);
const proxiesAfter = batchAfter(proxyConfigurations);

async function* walk<T>(
  read: (after: TAfter) => Promise<{ row: unknown; key: string }[]>,
): AsyncGenerator<T[]> {
  let after: TAfter;
  for (;;) {
    const rows = await read(after);
    if (rows.length === 0) return;
    yield rows.map((r) => r.row as T);
    const last = rows[rows.length - 1]!;
    after = { key: last.key, id: (last.row as { id: string }).id };
    if (rows.length < TRANSFER_BATCH) return;
  }
}

export function createTransferRepository(db: TDb) {
  return {
    /** The account's saved servers in batches, never all of them in memory. */
    servers(userId: string): AsyncGenerator<TSshServerRow[]> {
      return walk((after) => serversAfter(db, userId, after));
    },

    proxies(userId: string): AsyncGenerator<TProxyConfigurationRow[]> {
      return walk((after) => proxiesAfter(db, userId, after));
    },

    /** Which of these (lower-case) domains some configuration already uses, anyone's. */
    async domainsTaken(domains: string[]): Promise<string[]> {
      const taken: string[] = [];
      for (let i = 0; i < domains.length; i += TRANSFER_BATCH) {
        const rows = await db
          .select({ domain: proxyConfigurations.domain })
          .from(proxyConfigurations)
          .where(
            inArray(
              sql`lower(${proxyConfigurations.domain})`,
              domains.slice(i, i + TRANSFER_BATCH),
            ),
          );
        taken.push(...rows.map((r) => r.domain));
      }
      return taken;
    },

    async insertServers(rows: TNewSshServerRow[]): Promise<void> {
      for (let i = 0; i < rows.length; i += TRANSFER_BATCH) {
        await db.insert(sshServers).values(rows.slice(i, i + TRANSFER_BATCH));
      }
    },

    /** A domain taken meanwhile (the unique index) is `ImportDomainTakenError`. */
    async insertProxies(rows: TNewProxyConfigurationRow[]): Promise<void> {
      try {
        for (let i = 0; i < rows.length; i += TRANSFER_BATCH) {
          await db.insert(proxyConfigurations).values(rows.slice(i, i + TRANSFER_BATCH));
        }
      } catch (error) {
        if (violatedConstraint(error) === 'proxy_configurations_domain_key') {
          throw new ImportDomainTakenError();
        }
        throw error;
      }
    },
  };
}
