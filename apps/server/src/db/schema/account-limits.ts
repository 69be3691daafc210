import { integer, pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * One account's own limits, set by an admin (docs/PRODUCT.md#limits). A null column, or no row,
 * means the configured default (PORTICO_MAX_*).
 */
export const accountLimits = pgTable('account_limits', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  proxies: integer('proxies'),
  servers: integer('servers'),
  apiTokens: integer('api_tokens'),
  webhooks: integer('webhooks'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type TAccountLimitsRow = typeof accountLimits.$inferSelect;
