import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

export const destinationStatusEnum = pgEnum('destination_status', ['online', 'offline', 'unknown']);

/** Upstreams an admin offers in the wizard; a background probe keeps status and latency. */
export const destinationServers = pgTable(
  'destination_servers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    endpoint: text('endpoint').notNull(),
    description: text('description'),
    status: destinationStatusEnum('status').notNull().default('unknown'),
    // Only filled when the destination reports it; nothing sets it yet (docs/PRODUCT.md#destination-servers).
    load: text('load'),
    latencyMs: integer('latency_ms'),
    isActive: boolean('is_active').notNull().default(true),
    maintenanceNote: text('maintenance_note'),
    lastCheckedAt: timestamp('last_checked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // The minute's probe reads the active ones a batch at a time, in id order.
  (t) => [index('destination_servers_active_idx').on(t.id).where(sql`${t.isActive}`)],
);

export type TDestinationServerRow = typeof destinationServers.$inferSelect;
