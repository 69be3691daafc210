import type { TText } from '@portico/shared/i18n/text';
import { sql } from 'drizzle-orm';
import {
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { sshServers } from './ssh-servers';
import { users } from './users';

export const serverRunKindEnum = pgEnum('server_run_kind', ['redeploy', 'check-certificates']);
export const serverRunStateEnum = pgEnum('server_run_state', [
  'queued',
  'running',
  'done',
  'failed',
  'timed-out',
]);
export const serverRunOutcomeEnum = pgEnum('server_run_outcome', ['done', 'failed', 'refused']);

/**
 * One per-server action ("redeploy all", "check all certificates") worked as a background job
 * (modules/ssh-servers/server-runs.service.ts). Its id is its pg-boss job's id. One queued or
 * running run per server (the partial unique index): a second start is refused, naming this one.
 */
export const serverRuns = pgTable(
  'server_runs',
  {
    id: uuid('id').primaryKey(),
    sshServerId: uuid('ssh_server_id')
      .notNull()
      .references(() => sshServers.id, { onDelete: 'cascade' }),
    kind: serverRunKindEnum('kind').notNull(),
    state: serverRunStateEnum('state').notNull().default('queued'),
    requestedBy: uuid('requested_by').references(() => users.id, { onDelete: 'set null' }),
    /** The language of the runs it starts (their logs). */
    language: text('language').notNull(),
    done: integer('done').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    refused: integer('refused').notNull().default(0),
    total: integer('total').notNull().default(0),
    /** Why the run itself ended early (timed out, interrupted), a catalog text. */
    text: jsonb('text').$type<TText>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    deadlineAt: timestamp('deadline_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('server_runs_one_active_idx')
      .on(t.sshServerId)
      .where(sql`${t.state} in ('queued', 'running')`),
    // The latest per server, and the old ones pruned past the few kept.
    index('server_runs_server_idx').on(t.sshServerId, t.createdAt, t.id),
    // A user deleted sets their runs' requester to null.
    index('server_runs_requested_by_idx').on(t.requestedBy),
    // The sweep reads only unfinished runs.
    index('server_runs_unfinished_idx').on(t.id).where(sql`${t.state} in ('queued', 'running')`),
  ],
);

/** What a run did to one proxy, in the order it went through them (read a page at a time). */
export const serverRunResults = pgTable(
  'server_run_results',
  {
    runId: uuid('run_id')
      .notNull()
      .references(() => serverRuns.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    // No foreign key: the result stays when the proxy is deleted later.
    proxyId: uuid('proxy_id').notNull(),
    domain: text('domain').notNull(),
    outcome: serverRunOutcomeEnum('outcome').notNull(),
    deploymentId: uuid('deployment_id'),
    text: jsonb('text').$type<TText>(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.position] })],
);

export type TServerRunRow = typeof serverRuns.$inferSelect;
export type TServerRunResultRow = typeof serverRunResults.$inferSelect;
