import type { TDb } from '../../db/client';
import type { TBatchAfter } from '../../db/owned-batches';
import type { TReadsOver } from '../../db/reads-over';
import type {
  TNewProxyConfigurationRow,
  TNewSshServerRow,
  TProxyConfigurationRow,
  TSshServerRow,
} from '../../db/schema';

export type TTransferRepository = ReturnType<typeof createTransferRepository>;

/** Rows an export reads at a time, and an import writes per statement. */
export const TRANSFER_BATCH = 500;

export class ImportDomainTakenError extends Error {
  constructor() {
    super('domain taken');
    this.name = 'ImportDomainTakenError';
  }
}

/** What the transfer asks of the proxies module (services.ts hands its reads over). */
export interface TTransferProxyReads {
  ownedBatch(
    userId: string,
    after: TBatchAfter,
    limit: number,
  ): Promise<{ row: TProxyConfigurationRow; key: string }[]>;
  domainsTaken(domains: string[], batch: number): Promise<string[]>;
  insertMany(rows: TNewProxyConfigurationRow[], batch: number): Promise<boolean>;
}

/** What the transfer asks of the saved servers module. */
export interface TTransferServerReads {
  ownedBatch(
    userId: string,
    after: TBatchAfter,
    limit: number,
  ): Promise<{ row: TSshServerRow; key: string }[]>;
  insertMany(rows: TNewSshServerRow[], batch: number): Promise<void>;
}

/** The owners' reads the transfer walks and writes with, each built over a handle. */
export type TTransferReadsOver = TReadsOver<{
  proxies: TTransferProxyReads;
  servers: TTransferServerReads;
}>;

async function* walk<T>(
  read: (after: TBatchAfter) => Promise<{ row: unknown; key: string }[]>,
): AsyncGenerator<T[]> {
  let after: TBatchAfter;
  for (;;) {
    const rows = await read(after);
    if (rows.length === 0) return;
    yield rows.map((r) => r.row as T);
    const last = rows[rows.length - 1]!;
    after = { key: last.key, id: (last.row as { id: string }).id };
    if (rows.length < TRANSFER_BATCH) return;
  }
}

/** `over` builds the owners' reads over the same handle as `db` (services.ts hands them over). */
export function createTransferRepository(db: TDb, over: TTransferReadsOver) {
  const proxies = over.proxies(db);
  const servers = over.servers(db);
  return {
    /** The account's saved servers in batches, never all of them in memory. */
    servers(userId: string): AsyncGenerator<TSshServerRow[]> {
      return walk((after) => servers.ownedBatch(userId, after, TRANSFER_BATCH));
    },

    proxies(userId: string): AsyncGenerator<TProxyConfigurationRow[]> {
      return walk((after) => proxies.ownedBatch(userId, after, TRANSFER_BATCH));
    },

    /** Which of these (lower-case) domains some configuration already uses, anyone's. */
    async domainsTaken(domains: string[]): Promise<string[]> {
      return proxies.domainsTaken(domains, TRANSFER_BATCH);
    },

    async insertServers(rows: TNewSshServerRow[]): Promise<void> {
      await servers.insertMany(rows, TRANSFER_BATCH);
    },

    /** A domain taken meanwhile (the unique index) is `ImportDomainTakenError`. */
    async insertProxies(rows: TNewProxyConfigurationRow[]): Promise<void> {
      if (!(await proxies.insertMany(rows, TRANSFER_BATCH))) throw new ImportDomainTakenError();
    },
  };
}
