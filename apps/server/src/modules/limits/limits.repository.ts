import type { TLimitKind } from '@portico/shared/admin/limits';
import { eq } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import type { TReadsOver } from '../../db/reads-over';
import { accountLimits, type TAccountLimitsRow } from '../../db/schema';

export type TLimitsRepository = ReturnType<typeof createLimitsRepository>;
export type TLimitOverrides = Partial<Record<TLimitKind, number | null>>;

/** What the limits ask of the proxies module (services.ts hands its reads over). */
export interface TLimitsProxyReads {
  countOwnedBy(userId: string): Promise<number>;
}

/** What the limits ask of the saved servers module. */
export interface TLimitsServerReads {
  countOwnedBy(userId: string): Promise<number>;
}

/** What the limits ask of the API tokens module. */
export interface TLimitsTokenReads {
  countOwnedBy(userId: string): Promise<number>;
}

/** What the limits ask of the notifications module. */
export interface TLimitsNotificationReads {
  countWebhooksOf(userId: string): Promise<number>;
}

/** What the limits ask of the users module: whether the account exists, its row locked. */
export interface TLimitsUserReads {
  exists(userId: string): Promise<boolean>;
  lockRow(userId: string): Promise<boolean>;
}

/** The owners' reads the limits count with, each built over a handle (services.ts hands them over). */
export type TLimitsReadsOver = TReadsOver<{
  proxies: TLimitsProxyReads;
  servers: TLimitsServerReads;
  tokens: TLimitsTokenReads;
  notifications: TLimitsNotificationReads;
  users: TLimitsUserReads;
}>;

/** `over` builds the owners' reads over the same handle (`db` or a transaction). */
export function createLimitsRepository(db: TDb, over: TLimitsReadsOver) {
  const proxies = over.proxies(db);
  const servers = over.servers(db);
  const tokens = over.tokens(db);
  const notifications = over.notifications(db);
  const accounts = over.users(db);
  /** Each count is one indexed count over the account's own rows. */
  const counters: Record<TLimitKind, (userId: string) => Promise<number>> = {
    proxies: (userId) => proxies.countOwnedBy(userId),
    apiTokens: (userId) => tokens.countOwnedBy(userId),
    webhooks: (userId) => notifications.countWebhooksOf(userId),
    servers: (userId) => servers.countOwnedBy(userId),
  };

  return {
    /**
     * Locks the account's row until the transaction ends, so two creates of one account wait
     * for each other between their count and their insert (PGlite runs one transaction at a
     * time anyway). Answers whether the account exists.
     */
    async lockAccount(userId: string): Promise<boolean> {
      return accounts.lockRow(userId);
    },

    async userExists(userId: string): Promise<boolean> {
      return accounts.exists(userId);
    },

    async overrides(userId: string): Promise<TAccountLimitsRow | undefined> {
      return (await db.select().from(accountLimits).where(eq(accountLimits.userId, userId)))[0];
    },

    /** How many of `kind` the account holds. */
    async count(userId: string, kind: TLimitKind): Promise<number> {
      const counter = counters[kind];
      return Number(await counter(userId));
    },

    async setOverrides(userId: string, values: TLimitOverrides): Promise<void> {
      const updatedAt = new Date();
      await db
        .insert(accountLimits)
        .values({ userId, ...values, updatedAt })
        .onConflictDoUpdate({ target: accountLimits.userId, set: { ...values, updatedAt } });
    },
  };
}
