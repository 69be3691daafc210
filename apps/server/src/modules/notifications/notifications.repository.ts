import { eq, inArray } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { notificationSettings, type TNotificationSettingsRow } from '../../db/schema';

export type TNotificationsRepository = ReturnType<typeof createNotificationsRepository>;

export interface TStoredWebhook {
  enc: string;
  origin: string;
  hint: string;
}

export function createNotificationsRepository(db: TDb) {
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
      const values = { emailEnabled: changes.emailEnabled, ...webhook, updatedAt: new Date() };
      const rows = await db
        .insert(notificationSettings)
        .values({ userId, ...values })
        .onConflictDoUpdate({ target: notificationSettings.userId, set: values })
        .returning();
      return rows[0]!;
    },
  };
}
