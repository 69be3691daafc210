import type { TServerFacts } from '@portico/shared/ssh-servers/facts';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users';

export const sshAuthKindEnum = pgEnum('ssh_auth_kind', ['password', 'key']);

/**
 * A server a user reaches over SSH, saved once for every proxy on it
 * (docs/PRODUCT.md#ssh-servers). The secrets are AES-256-GCM ciphertexts whose additional data
 * names this row, the column and the target `username@host:port` they were entered for
 * (modules/ssh-servers/server-credentials.ts): changing host, port or username clears them.
 */
export const sshServers = pgTable(
  'ssh_servers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    host: text('host').notNull(),
    port: integer('port').notNull().default(22),
    username: text('username').notNull().default('root'),
    authKind: sshAuthKindEnum('auth_kind').notNull().default('password'),
    passwordEnc: text('password_enc'),
    privateKeyEnc: text('private_key_enc'),
    passphraseEnc: text('passphrase_enc'),
    sudoPasswordEnc: text('sudo_password_enc'),
    // The `authorized_keys` line of a key Portico generated (public: shown again on request).
    publicKey: text('public_key'),
    hostKeyFingerprint: text('host_key_fingerprint'),
    description: text('description'),
    isActive: boolean('is_active').notNull().default(true),
    lastCheckedAt: timestamp('last_checked_at', { withTimezone: true }),
    reachable: boolean('reachable'),
    // What the last successful check read (modules/ssh-servers/server-facts.ts), validated.
    facts: jsonb('facts').$type<TServerFacts>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // The list's keyset (newest first, ids breaking ties): one user's, and an admin's of everyone.
  (t) => [
    index('ssh_servers_user_idx').on(t.userId, t.createdAt, t.id),
    index('ssh_servers_created_idx').on(t.createdAt, t.id),
  ],
);

export type TSshServerRow = typeof sshServers.$inferSelect;
export type TNewSshServerRow = typeof sshServers.$inferInsert;
