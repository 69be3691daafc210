import { and, count, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { resealer } from '../../db/reseal';
import { notificationSettings, type TNotificationSettingsRow, users } from '../../db/schema';

export type TNotificationsRepository = ReturnType<typeof createNotificationsRepository>;

export interface TStoredWebhook {
  enc: string;
  origin: string;
  hint: string;
}

type TSettingsValues = Partial<Omit<TNotificationSettingsRow, 'userId'>>;

export function createNotificationsRepository(db: TDb) {
  /** Writes `values` to the user's row, made with the defaults first if there is none. */
  async function upsert(userId: string, set: TSettingsValues): Promise<TNotificationSettingsRow> {
    const values = { ...set, updatedAt: new Date() };
    const rows = await db
      .insert(notificationSettings)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: notificationSettings.userId, set: values })
      .returning();
    return rows[0]!;
  }

  return {
    async find(userId: string): Promise<TNotificationSettingsRow | undefined> {
      const rows = await db
        .select()
        .from(notificationSettings)
        .where(eq(notificationSettings.userId, userId))
        .limit(1);
      return rows[0];
    },

    async findMany(userIds: string[]): Promise<TNotificationSettingsRow[]> {
      if (userIds.length === 0) return [];
      return db
        .select()
        .from(notificationSettings)
        .where(inArray(notificationSettings.userId, userIds));
    },

    /** `webhook`: a new one, null to remove it, undefined to keep what is stored. */
    async save(
      userId: string,
      changes: { emailEnabled: boolean; webhook?: TStoredWebhook | null },
    ): Promise<TNotificationSettingsRow> {
      const webhook =
        changes.webhook === undefined
          ? {}
          : {
              webhookUrlEnc: changes.webhook?.enc ?? null,
              webhookOrigin: changes.webhook?.origin ?? null,
              webhookHint: changes.webhook?.hint ?? null,
            };
      return upsert(userId, { emailEnabled: changes.emailEnabled, ...webhook });
    },

    /** A new code for `address` replaces any earlier one, its tries counted from 0. */
    async storeEmailCode(
      userId: string,
      code: { hash: string; address: string; expiresAt: Date },
    ): Promise<TNotificationSettingsRow> {
      return upsert(userId, {
        emailCodeHash: code.hash,
        emailCodeAddress: code.address,
        emailCodeExpiresAt: code.expiresAt,
        emailCodeTries: 0,
      });
    },

    /**
     * Counts one try at the stored code before it is compared, in one statement, so tries made
     * at the same moment are each counted; undefined when no code is stored.
     */
    async countEmailCodeTry(userId: string): Promise<TNotificationSettingsRow | undefined> {
      const rows = await db
        .update(notificationSettings)
        .set({ emailCodeTries: sql`${notificationSettings.emailCodeTries} + 1` })
        .where(
          and(
            eq(notificationSettings.userId, userId),
            isNotNull(notificationSettings.emailCodeHash),
          ),
        )
        .returning();
      return rows[0];
    },

    /** The address is verified; the code that proved it is gone. */
    async markEmailVerified(userId: string, address: string): Promise<TNotificationSettingsRow> {
      const rows = await db
        .update(notificationSettings)
        .set({
          emailVerifiedAddress: address,
          emailCodeHash: null,
          emailCodeAddress: null,
          emailCodeExpiresAt: null,
          emailCodeTries: 0,
          updatedAt: new Date(),
        })
        .where(eq(notificationSettings.userId, userId))
        .returning();
      return rows[0]!;
    },

    /** How many webhooks the account holds (the account limits): at most one, by primary key. */
    async countWebhooksOf(userId: string): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(notificationSettings)
        .where(
          and(
            eq(notificationSettings.userId, userId),
            isNotNull(notificationSettings.webhookUrlEnc),
          ),
        );
      return row!.n;
    },

    /** Every account's sealed webhook URL, named by its username (the key rotation). */
    async sealedWebhooks() {
      return db
        .select({
          id: notificationSettings.userId,
          label: users.username,
          stored: notificationSettings.webhookUrlEnc,
        })
        .from(notificationSettings)
        .innerJoin(users, eq(users.id, notificationSettings.userId))
        .where(isNotNull(notificationSettings.webhookUrlEnc));
    },

    /** Seals the account's webhook URL anew, only if it still holds `previous`: false otherwise. */
    resealWebhook: resealer(
      db,
      notificationSettings,
      notificationSettings.userId,
      notificationSettings.webhookUrlEnc,
    ),
  };
}
