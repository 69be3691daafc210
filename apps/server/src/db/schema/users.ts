import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

export const roleEnum = pgEnum('user_role', ['user', 'admin']);

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    username: text('username').notNull(),
    // Stored lower-case so uniqueness and login are case-insensitive.
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: roleEnum('role').notNull().default('user'),
    firstName: text('first_name'),
    lastName: text('last_name'),
    profileImageUrl: text('profile_image_url'),
    // Two-factor sign-in (RFC 6238). The secret is AES-256-GCM bound to `user:<id>:totpSecret`
    // (lib/secrets.ts); set but not enabled while the user has not confirmed a first code.
    totpSecretEnc: text('totp_secret_enc'),
    totpEnabledAt: timestamp('totp_enabled_at', { withTimezone: true }),
    // The last time step a code was accepted for: that code and older ones are refused (replay).
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    // The language the user last used Portico in (en/es): alerts are written in it.
    language: text('language'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    // What the admin's searches look in for an account (its name and e-mail), lower-cased once
    // when the row is written, as proxy_configurations.search_text: a plain LIKE instead of an
    // ILIKE that folds the case of every row at every search.
    searchText: text('search_text')
      .notNull()
      .generatedAlwaysAs(sql`lower("username" || chr(10) || "email")`),
  },
  (t) => [
    // "Alice" and "alice" are one account: the display case is kept, uniqueness ignores it.
    uniqueIndex('users_username_lower_key').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_key').on(t.email),
    // The admin's users list in pages: its order and keyset.
    index('users_created_idx').on(t.createdAt, t.username, t.id),
    // The alerts' recipients (listAdmins): the few admins, not every account.
    index('users_admins_idx').on(t.createdAt, t.username).where(sql`${t.role} = 'admin'`),
  ],
);

export type TUserRow = typeof users.$inferSelect;
