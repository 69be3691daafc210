import type {
  TCertificateCheck,
  TCertificateFacts,
  TRenewalHealth,
  TServedCertificate,
} from '@portico/shared/certificates/schemas';
import type { TCertificateState } from '@portico/shared/certificates/state';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { proxyConfigurations } from './proxy-configurations';
import { users } from './users';

/** What the owner has been told about a certificate, so each change alerts once. */
export type TAlertedState = {
  /** The state the dates put it in (fine, warning, danger). */
  expiry: TCertificateState;
  checkFailed: boolean;
  notReloaded: boolean;
};

/**
 * The certificate watch, one row per proxy: the last live check from Portico (no SSH), the
 * certificate certbot holds on the server (read by deployments and the certificate actions),
 * how the server renews, and what was alerted.
 */
export const certificateStatus = pgTable('certificate_status', {
  configurationId: uuid('configuration_id')
    .primaryKey()
    .references(() => proxyConfigurations.id, { onDelete: 'cascade' }),
  /** The certificate last seen served; kept when a later check fails. */
  served: jsonb('served').$type<TServedCertificate>(),
  lastCheck: jsonb('last_check').$type<TCertificateCheck>(),
  checkRequestedAt: timestamp('check_requested_at', { withTimezone: true }),
  onServer: jsonb('on_server').$type<TCertificateFacts & { readAt: string }>(),
  renewal: jsonb('renewal').$type<TRenewalHealth>(),
  alerted: jsonb('alerted')
    .$type<TAlertedState>()
    .notNull()
    .default({ expiry: 'fine', checkFailed: false, notReloaded: false }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Where a user's certificate alerts go. A user without a row gets e-mail (when SMTP is set). */
export const notificationSettings = pgTable('notification_settings', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  emailEnabled: boolean('email_enabled').notNull().default(true),
  // AES-256-GCM bound to `user:<id>:webhookUrl` (lib/secrets.ts): the URL is the receiver's
  // secret (Slack, Discord); only its origin and a hint of its path are shown.
  webhookUrlEnc: text('webhook_url_enc'),
  webhookOrigin: text('webhook_origin'),
  webhookHint: text('webhook_hint'),
  // E-mail goes only to an address its owner proved to read (issue 35): the account address
  // this was set for, when the user entered the code sent there. An account whose address
  // changed is unverified again, since the two no longer match.
  emailVerifiedAddress: text('email_verified_address'),
  // The code last sent, as an argon2 hash bound to its address; void after its expiry or
  // after EMAIL_CODE_TRIES wrong tries (modules/notifications/email-verification.ts).
  emailCodeHash: text('email_code_hash'),
  emailCodeAddress: text('email_code_address'),
  emailCodeExpiresAt: timestamp('email_code_expires_at', { withTimezone: true }),
  emailCodeTries: integer('email_code_tries').notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type TCertificateStatusRow = typeof certificateStatus.$inferSelect;
export type TNotificationSettingsRow = typeof notificationSettings.$inferSelect;

/**
 * Your own certificate for a proxy (issue 41), one per proxy: the chain as uploaded (public) and
 * its private key, an AES-256-GCM ciphertext whose additional data names this proxy
 * (`custom-certificate:<id>:privateKey`), never shown again. Replacing it is another upload.
 */
export const customCertificates = pgTable('custom_certificates', {
  configurationId: uuid('configuration_id')
    .primaryKey()
    .references(() => proxyConfigurations.id, { onDelete: 'cascade' }),
  chainPem: text('chain_pem').notNull(),
  privateKeyEnc: text('private_key_enc').notNull(),
  fingerprint: text('fingerprint').notNull(),
  notBefore: timestamp('not_before', { withTimezone: true }).notNull(),
  notAfter: timestamp('not_after', { withTimezone: true }).notNull(),
  issuer: text('issuer').notNull(),
  names: jsonb('names').$type<string[]>().notNull(),
  uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
});
export type TCustomCertificateRow = typeof customCertificates.$inferSelect;

/**
 * A proxy's certificate by DNS-01 (issue 41): the provider and its credentials, sealed with the
 * proxy and the server address they were entered for in their additional data
 * (modules/certificates/dns-challenge-secret.ts), so they are presented to that server alone.
 */
export const dnsChallenges = pgTable('dns_challenges', {
  configurationId: uuid('configuration_id')
    .primaryKey()
    .references(() => proxyConfigurations.id, { onDelete: 'cascade' }),
  provider: text('provider').notNull(),
  includeApex: boolean('include_apex').notNull().default(false),
  credentialsEnc: text('credentials_enc').notNull(),
  /** The server address the credentials were entered for (also inside their sealing). */
  serverIp: text('server_ip').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type TDnsChallengeRow = typeof dnsChallenges.$inferSelect;

/**
 * A proxy served with the wildcard certificate another proxy of the same owner holds on the same
 * server (issue 41): `*.example.com`'s lineage under /etc/letsencrypt/live serves
 * `name.example.com` too, and certbot is not run for it. The holder's proxies that use it are
 * read by `holder_id` (its index) before the holder may go or change.
 */
export const wildcardCertificateUses = pgTable(
  'wildcard_certificate_uses',
  {
    configurationId: uuid('configuration_id')
      .primaryKey()
      .references(() => proxyConfigurations.id, { onDelete: 'cascade' }),
    holderId: uuid('holder_id')
      .notNull()
      .references(() => proxyConfigurations.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('wildcard_certificate_uses_holder_idx').on(t.holderId, t.configurationId)],
);
export type TWildcardCertificateUseRow = typeof wildcardCertificateUses.$inferSelect;
