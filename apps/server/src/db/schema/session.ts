import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Server-side sessions (plugins/session.ts); the cookie only carries the signed sid. */
export const session = pgTable(
  'session',
  {
    sid: text('sid').primaryKey(),
    sess: jsonb('sess').$type<Record<string, unknown>>().notNull(),
    expire: timestamp('expire', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('session_expire_idx').on(t.expire),
    // One account's sessions: the settings list, "end all others", a password change.
    index('session_user_idx').on(sql`(${t.sess}->>'userId')`),
  ],
);
