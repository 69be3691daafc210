import { index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Server-side sessions (@fastify/session store); the cookie only carries the signed sid. */
export const session = pgTable(
  'session',
  {
    sid: text('sid').primaryKey(),
    sess: jsonb('sess').$type<Record<string, unknown>>().notNull(),
    expire: timestamp('expire', { withTimezone: true }).notNull(),
  },
  (t) => [index('session_expire_idx').on(t.expire)],
);

export type TSessionRow = typeof session.$inferSelect;
