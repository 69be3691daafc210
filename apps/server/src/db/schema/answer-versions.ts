import { bigint, pgTable, uuid } from 'drizzle-orm/pg-core';

/**
 * How often the rows an account's own answers are made of have changed: `version` its proxy
 * configurations and their deployment logs, `logsVersion` only the logs and which
 * configurations it owns (a deletion or a change of owner; the logs screen answers 404 for
 * another's), so that an edit leaves the logs' kept answers alone. Kept by triggers (migrations
 * 0009 and 0010), in the transaction that changes them, so every instance reads it with the session
 * (plugins/answer-cache.ts). No row yet means no such change since the table came. No foreign
 * key: a row left by a deleted account is harmless (ids are never reused), and a trigger that
 * runs while an account's rows are deleted with it must not fail on one.
 */
export const answerVersions = pgTable('answer_versions', {
  userId: uuid('user_id').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull(),
  logsVersion: bigint('logs_version', { mode: 'number' }).notNull().default(0),
});
