import type { TText } from '@portico/shared/i18n/text';
import { LOG_LEVELS } from '@portico/shared/proxy/schemas';
import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  jsonb,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { proxyConfigurations } from './proxy-configurations';
import { users } from './users';

export const deploymentStatusEnum = pgEnum('deployment_status', [
  'queued',
  'running',
  'completed',
  'failed',
]);
// renew_test and renew are the certificate actions (Test renewal, Renew now): runs like any
// other, with the same log.
export const deploymentTriggerEnum = pgEnum('deployment_trigger', [
  'deploy',
  'redeploy',
  'renew_test',
  'renew',
]);
export const logLevelEnum = pgEnum('log_level', LOG_LEVELS);

/** One row per run of the engine for a configuration. */
export const deployments = pgTable(
  'deployments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    configurationId: uuid('configuration_id')
      .notNull()
      .references(() => proxyConfigurations.id, { onDelete: 'cascade' }),
    trigger: deploymentTriggerEnum('trigger').notNull(),
    status: deploymentStatusEnum('status').notNull().default('queued'),
    requestedBy: uuid('requested_by').references(() => users.id, { onDelete: 'set null' }),
    jobId: text('job_id'),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    /** errorMessage as a text, rendered in each reader's language; null on older rows. */
    errorText: jsonb('error_text').$type<TText>(),
    /** The requester's language (en/es): Portico's own log sentences for this run use it. */
    language: text('language').notNull().default('es'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('deployments_configuration_idx').on(t.configurationId, t.createdAt),
    // One unfinished run per configuration, whatever its kind: a certificate action and a
    // deployment never run side by side (the status gate covers deployments only).
    uniqueIndex('deployments_one_unfinished_idx')
      .on(t.configurationId)
      .where(sql`${t.status} in ('queued', 'running')`),
  ],
);

export const deploymentLogs = pgTable(
  'deployment_logs',
  {
    // An identity keeps lines in the order they were written, even within one millisecond.
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    configurationId: uuid('configuration_id')
      .notNull()
      .references(() => proxyConfigurations.id, { onDelete: 'cascade' }),
    deploymentId: uuid('deployment_id').references(() => deployments.id, { onDelete: 'cascade' }),
    level: logLevelEnum('level').notNull(),
    /** The line in the run's language; older rows have only this. */
    message: text('message').notNull(),
    /** Portico's own sentence as a text (key and values), rendered in each reader's language. */
    text: jsonb('text').$type<TText>(),
    timestamp: timestamp('timestamp', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('deployment_logs_configuration_idx').on(t.configurationId, t.id)],
);

export type TDeploymentRow = typeof deployments.$inferSelect;
export type TDeploymentLogRow = typeof deploymentLogs.$inferSelect;
