import { z } from 'zod';
import { PAGE_LIMIT_MAX, pageOf, ZPageQuery } from '../lists/page';
import { CERTIFICATE_STATES } from './state';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

// Shapes of the certificate watch (issue 15): what Portico saw served, what certbot has on the
// server, how the server renews, and the two actions.

export const ZCertificateState = z.enum(CERTIFICATE_STATES);

/**
 * A sentence of Portico's kept as a catalog key (shared catalogs, `certificates.*`) and its
 * values, so each reader sees it in their own language.
 */
export const ZKeyText = z.object({
  key: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});
export type TKeyText = z.infer<typeof ZKeyText>;

/** A certificate as read from a TLS handshake or from certbot's files. */
export const ZCertificateFacts = z.object({
  /** SHA-256 of the DER certificate, upper-case hex pairs joined by ':' (as openssl prints). */
  fingerprint: z.string(),
  notBefore: z.string(),
  notAfter: z.string(),
});
export type TCertificateFacts = z.infer<typeof ZCertificateFacts>;

export const ZServedCertificate = ZCertificateFacts.extend({
  issuer: z.string(),
  /** The DNS names it is valid for (subjectAltName). */
  names: z.array(z.string()),
});
export type TServedCertificate = z.infer<typeof ZServedCertificate>;

/** One live check from Portico: TLS to the server's address with the domain as SNI, then HTTP. */
export const ZCertificateCheck = z.object({
  checkedAt: z.string(),
  /** A certificate was served and verifies for the domain (system roots + the extra CA file). */
  ok: z.boolean(),
  /** Why not, when not ok. */
  problem: ZKeyText.nullable(),
  /** http://domain/ answers with a redirect to https://domain/; null when it could not be asked. */
  httpRedirects: z.boolean().nullable(),
  httpProblem: ZKeyText.nullable(),
});
export type TCertificateCheck = z.infer<typeof ZCertificateCheck>;

// 'uploaded': the proxy serves its own certificate (issue 41), which nothing on the server renews.
export const RENEWAL_METHODS = ['systemd-timer', 'cron', 'none', 'uploaded'] as const;
export type TRenewalMethod = (typeof RENEWAL_METHODS)[number];

/** How the server renews its certificates, as the last deployment found (or set up). */
export const ZRenewalHealth = z.object({
  method: z.enum(RENEWAL_METHODS),
  /** The timer unit or the cron file, e.g. certbot.timer, /etc/cron.d/certbot. */
  where: z.string().nullable(),
  working: z.boolean(),
  /** Portico installed, enabled or started something for it (listed in `notes`). */
  setUpByPortico: z.boolean(),
  /** What was found, installed or is missing, and what to do. */
  notes: z.array(ZKeyText),
  checkedAt: z.string(),
});
export type TRenewalHealth = z.infer<typeof ZRenewalHealth>;

/** A check as the API shows it: its sentences in the reader's language (Accept-Language). */
export const ZCertificateCheckView = ZCertificateCheck.extend({
  problem: z.string().nullable(),
  httpProblem: z.string().nullable(),
});
export type TCertificateCheckView = z.infer<typeof ZCertificateCheckView>;

export const ZRenewalHealthView = ZRenewalHealth.extend({ notes: z.array(z.string()) });

export const CERTIFICATE_ACTIONS = ['renew_test', 'renew'] as const;
export type TCertificateAction = (typeof CERTIFICATE_ACTIONS)[number];

/**
 * How often each action may run (issue 35), counted from Portico's own runs: "Renew now" forces
 * a new certificate, and Let's Encrypt issues at most 5 for the same names in 7 days (then
 * refuses that domain for the rest of the week); "Test renewal" changes nothing but still asks
 * the CA. Every attempt counts, whatever its outcome; the account is the proxy's owner.
 */
export const CERTIFICATE_ACTION_LIMITS = {
  renew: [
    { id: 'proxyDay', scope: 'proxy', max: 2, windowMs: 24 * 3_600_000 },
    { id: 'proxyWeek', scope: 'proxy', max: 4, windowMs: 7 * 24 * 3_600_000 },
    { id: 'accountDay', scope: 'account', max: 10, windowMs: 24 * 3_600_000 },
  ],
  renew_test: [
    { id: 'proxyHour', scope: 'proxy', max: 4, windowMs: 3_600_000 },
    { id: 'accountHour', scope: 'account', max: 20, windowMs: 3_600_000 },
  ],
} as const;
export const ACTION_LIMIT_IDS = [
  'proxyDay',
  'proxyWeek',
  'accountDay',
  'proxyHour',
  'accountHour',
] as const;

/** Let's Encrypt's duplicate certificate limit: 5 for the same names per 7 days. */
export const DUPLICATE_CERTIFICATE_LIMIT = { max: 5, days: 7 } as const;

/** An action held back by one of its limits, and the moment it may run again. */
export const ZActionHold = z.object({
  limit: z.enum(ACTION_LIMIT_IDS),
  max: z.number(),
  /** Whole minute, UTC: a request from then on is accepted (unless another run counts first). */
  retryAt: z.string(),
});
export type TActionHold = z.infer<typeof ZActionHold>;

export const ZCertificateActionRun = z.object({
  kind: z.enum(CERTIFICATE_ACTIONS),
  deploymentId: z.string(),
  status: z.enum(['queued', 'running', 'completed', 'failed']),
  at: z.string(),
  finishedAt: z.string().nullable(),
});

/** GET /api/proxy-configurations/{id}/certificate */
/** What Portico keeps of an uploaded certificate (issue 41) that may be shown: never the key. */
export const ZCustomCertificate = ZCertificateFacts.extend({
  issuer: z.string(),
  names: z.array(z.string()),
  uploadedAt: z.string(),
});
export type TCustomCertificate = z.infer<typeof ZCustomCertificate>;

export const ZCertificateStatus = z.object({
  configurationId: z.string(),
  domain: z.string(),
  /** Null until Portico has seen a certificate served for the domain. */
  state: ZCertificateState.nullable(),
  daysLeft: z.number().nullable(),
  /** The certificate last seen served (kept when a later check fails). */
  served: ZServedCertificate.nullable(),
  check: ZCertificateCheckView.nullable(),
  /** A check was asked for and has not finished yet. */
  checkPending: z.boolean(),
  /** certbot's current certificate on the server, read by the last deployment or action. */
  onServer: ZCertificateFacts.extend({ readAt: z.string() }).nullable(),
  /** The server holds a newer certificate than the one served: nginx was not reloaded. */
  nginxNotReloaded: z.boolean(),
  renewal: ZRenewalHealthView.nullable(),
  /**
   * Certificates Portico's runs obtained for the domain in the last 7 days (deployments that
   * issued one, forced renewals that renewed), beside Let's Encrypt's limit for the same names.
   */
  recentlyIssued: z.object({ count: z.number(), days: z.number(), max: z.number() }),
  lastAction: ZCertificateActionRun.nullable(),
  /** Each action held back by a limit now; null when it may run. */
  held: z.object({ renew: ZActionHold.nullable(), renew_test: ZActionHold.nullable() }),
  /** The owner's own certificate, served instead of the CA's from the next deployment on. */
  uploaded: ZCustomCertificate.nullable(),
});
export type TCertificateStatus = z.infer<typeof ZCertificateStatus>;

/** What the proxy list shows beside each proxy. */
export const ZCertificateSummary = z.object({
  state: ZCertificateState,
  /** Null when no certificate was ever seen served (the first check failed). */
  daysLeft: z.number().nullable(),
  notAfter: z.string().nullable(),
  checkFailed: z.boolean(),
  nginxNotReloaded: z.boolean(),
});
export type TCertificateSummary = z.infer<typeof ZCertificateSummary>;

export const ATTENTION_REASONS = [
  'warning',
  'danger',
  'checkFailed',
  'nginxNotReloaded',
  'noRenewal',
  'actionFailed',
] as const;
export type TAttentionReason = (typeof ATTENTION_REASONS)[number];

/** GET /api/admin/certificates: every user's certificates that need someone to look. */
export const ZAttentionRow = z.object({
  configurationId: z.string(),
  domain: z.string(),
  userId: z.string(),
  username: z.string(),
  email: z.string(),
  state: ZCertificateState.nullable(),
  daysLeft: z.number().nullable(),
  notAfter: z.string().nullable(),
  checkedAt: z.string().nullable(),
  reasons: z.array(z.enum(ATTENTION_REASONS)),
});
export type TAttentionRow = z.infer<typeof ZAttentionRow>;

/**
 * GET /api/admin/certificates for a page (any list parameter): soonest end first, certificates
 * never seen served first of all; `q` finds the domain, the owner or their e-mail.
 */
export const ZAttentionQuery = ZPageQuery;
export type TAttentionQuery = z.infer<typeof ZAttentionQuery>;
export const ZAttentionPage = pageOf(ZAttentionRow);
export type TAttentionPage = z.infer<typeof ZAttentionPage>;

export const ZCheckStarted = z.object({ queued: z.literal(true) });

/**
 * GET /api/certificates?ids=a,b: only these of the caller's proxies (a page of the list, at
 * most PAGE_LIMIT_MAX); without `ids`, every one.
 */
export const ZCertificateSummariesQuery = z.object({
  ids: z
    .string()
    .regex(new RegExp(`^${UUID}(,${UUID}){0,${PAGE_LIMIT_MAX - 1}}$`, 'i'), 'validation.invalidId')
    .optional(),
});
export type TCertificateSummariesQuery = z.infer<typeof ZCertificateSummariesQuery>;

/** GET /api/certificates: the caller's proxies that serve HTTPS, by configuration id. */
export const ZCertificateSummaries = z.array(
  ZCertificateSummary.extend({ configurationId: z.string() }),
);
