import { bigint, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/** One changed field; secrets are never recorded, only that they changed. */
export type TAuditChange = { field: string; before: unknown; after: unknown };

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    // Kept so the trail still names who acted after the account is gone.
    actorUsername: text('actor_username').notNull(),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    // The owner of the target at the time, so a user's trail can be filtered.
    targetOwnerId: uuid('target_owner_id'),
    changes: jsonb('changes').$type<TAuditChange[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('audit_log_created_idx').on(t.createdAt),
    index('audit_log_target_idx').on(t.targetType, t.targetId),
  ],
);

export type TAuditLogRow = typeof auditLog.$inferSelect;
