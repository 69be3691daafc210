import type { TText } from '@portico/shared/i18n/text';
import type { TProxyOptions } from '@portico/shared/proxy/options';
import { PROXY_STATUSES } from '@portico/shared/proxy/schemas';
import type { TServerSite } from '@portico/shared/proxy/server-record';
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { sshServers } from './ssh-servers';
import { users } from './users';

export const proxyStatusEnum = pgEnum('proxy_status', PROXY_STATUSES);
/** `adopted`: a hand-written site Portico recorded as it is and never writes to. */
export const proxyOriginEnum = pgEnum('proxy_origin', ['portico', 'adopted']);

/** What was on the server after the last successful deployment, to tell "changed since deploy". */
export type TDeployedSnapshot = {
  domain: string;
  targetServer: string;
  serverIp: string;
  sshPort: number;
  sshUser: string;
  /** Absent in snapshots from before options existed: read as none. */
  options?: TProxyOptions;
};

/** The last run's failure as stored: its text renders in each reader's language. */
export type TStoredFailure = {
  deploymentId: string | null;
  code: string;
  step: string;
  text: TText;
  /** The same in the run's language, for readers of the raw row. */
  message: string;
  at: string;
};

export const proxyConfigurations = pgTable(
  'proxy_configurations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // Stored lower-case; unique across all users (docs/PRODUCT.md#proxy-states-and-transitions).
    domain: text('domain').notNull(),
    serverIp: text('server_ip').notNull(),
    sshPort: integer('ssh_port').notNull().default(22),
    sshUser: text('ssh_user').notNull().default('root'),
    // AES-256-GCM ciphertexts bound to the row id (lib/secrets.ts); never returned by the API.
    sshPasswordEnc: text('ssh_password_enc'),
    // The SSH target the password was entered for, `user@host:port` (modules/ssh-servers/server-credentials.ts): it is
    // presented to no other. Changing the server, port or user clears the password.
    sshPasswordTarget: text('ssh_password_target'),
    sshPrivateKeyEnc: text('ssh_private_key_enc'),
    // The saved server this proxy is on (ssh-servers.ts); a server in use cannot be deleted (checked at the end of the statement, so deleting a user, which cascades to both tables, works).
    sshServerId: uuid('ssh_server_id').references(() => sshServers.id, { onDelete: 'no action' }),
    hostKeyFingerprint: text('host_key_fingerprint'),
    email: text('email').notNull(),
    // Empty until the destination step: the wizard resumes there (docs/PRODUCT.md#proxy-wizard).
    targetServer: text('target_server'),
    // Upstreams, headers, access and the rest (shared/proxy/options.ts): basic-auth passwords
    // only as hashes. Rendered only by deploy/nginx-site.ts, after the allowlist again.
    options: jsonb('options').$type<TProxyOptions>().notNull().default({}),
    status: proxyStatusEnum('status').notNull().default('pending'),
    sslConfigured: boolean('ssl_configured').notNull().default(false),
    nginxConfigPath: text('nginx_config_path'),
    certificateExpiresAt: timestamp('certificate_expires_at', { withTimezone: true }),
    lastDeployedAt: timestamp('last_deployed_at', { withTimezone: true }),
    deployedSnapshot: jsonb('deployed_snapshot').$type<TDeployedSnapshot>(),
    // What is on the server(s), written by the engine as it writes (shared/proxy/server-record):
    // removal follows it, and sslConfigured, nginxConfigPath and certificateExpiresAt mirror it.
    serverSites: jsonb('server_sites').$type<TServerSite[]>().notNull().default([]),
    lastFailure: jsonb('last_failure').$type<TStoredFailure>(),
    origin: proxyOriginEnum('origin').notNull().default('portico'),
    // Adopted sites (proxies/proxy-adoption.ts): the file as scanned, its sha256 then, when a
    // later scan or "Check now" found it changed by hand, and when one found it gone.
    adoptedFile: text('adopted_file'),
    adoptedSha256: text('adopted_sha256'),
    adoptedFileText: text('adopted_file_text'),
    adoptedChangedAt: timestamp('adopted_changed_at', { withTimezone: true }),
    adoptedMissingAt: timestamp('adopted_missing_at', { withTimezone: true }),
    customScriptName: text('custom_script_name'),
    customScript: text('custom_script'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    // What a list search looks in (db/proxy-lists.ts), lower-cased once when the row is written:
    // the search is then a plain LIKE. ILIKE folds the case of every row at every search, which
    // on PGlite costs about 17 µs a row and column against 0.4 µs for LIKE (3 columns, 10,000
    // proxies, a page and its counts: over a second).
    searchText: text('search_text')
      .notNull()
      .generatedAlwaysAs(
        sql`lower("domain" || chr(10) || coalesce("target_server", '') || chr(10) || "server_ip")`,
      ),
  },
  (t) => [
    uniqueIndex('proxy_configurations_domain_key').on(sql`lower(${t.domain})`),
    // The lists in pages (db/proxy-lists.ts): each sort's keyset, within a user and over all.
    index('proxy_configurations_user_idx').on(t.userId, t.createdAt, t.id),
    index('proxy_configurations_user_expiry_idx').on(
      t.userId,
      sql`coalesce(${t.certificateExpiresAt}, 'infinity'::timestamptz)`,
      t.id,
    ),
    index('proxy_configurations_created_idx').on(t.createdAt, t.id),
    // The certificate watch's sweep reads the HTTPS sites a batch at a time, in id order.
    index('proxy_configurations_watched_idx').on(t.id).where(sql`${t.sslConfigured}`),
    index('proxy_configurations_expiry_idx').on(
      sql`coalesce(${t.certificateExpiresAt}, 'infinity'::timestamptz)`,
      t.id,
    ),
    // A saved server's page of its proxies (the `sshServerId` filter), in each sort's keyset;
    // its proxy count and the delete-in-use check read the same index's first column.
    index('proxy_configurations_ssh_server_idx').on(t.sshServerId, t.createdAt, t.id),
    index('proxy_configurations_ssh_server_expiry_idx').on(
      t.sshServerId,
      sql`coalesce(${t.certificateExpiresAt}, 'infinity'::timestamptz)`,
      t.id,
    ),
    // The reaper's claims left deploying (deployingWithoutRun), every 30 s: the few deploying.
    index('proxy_configurations_deploying_idx')
      .on(t.updatedAt)
      .where(sql`${t.status} = 'deploying'`),
  ],
);

export type TProxyConfigurationRow = typeof proxyConfigurations.$inferSelect;
export type TNewProxyConfigurationRow = typeof proxyConfigurations.$inferInsert;
