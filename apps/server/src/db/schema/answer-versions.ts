import { bigint, pgTable, uuid } from 'drizzle-orm/pg-core';

/**
 * How often the rows an account's own answers are made of have changed, kept by triggers
 * (migrations 0009 and 0010) in the transaction that changes them, so every instance reads them
 * with the session (plugins/answer-cache.ts):
 * - `proxiesVersion`: its proxy configurations (the list and the details);
 * - `logsVersion`: their log lines, and which configurations it owns (a deletion or a change
 *   of owner: the logs screen answers 404 for another's);
 * - `version`: both, as migration 0009 kept it; only an instance from before 0010 reads it.
 * So an edit leaves the logs' kept answers alone, and a deployment's log lines the list's.
 * No row yet means no such change since the table came. No foreign
 * key: a row left by a deleted account is harmless (ids are never reused), and a trigger that
 * runs while an account's rows are deleted with it must not fail on one.
 */
export const answerVersions = pgTable('answer_versions', {
  userId: uuid('user_id').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull(),
  proxiesVersion: bigint('proxies_version', { mode: 'number' }).notNull().default(0),
  logsVersion: bigint('logs_version', { mode: 'number' }).notNull().default(0),
});
