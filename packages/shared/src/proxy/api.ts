import { z } from 'zod';
import { ZText } from '../i18n/text';
import { pageOf, ZPageQuery } from '../lists/page';
import { ZProxyOptionsInput, ZProxyOptionsView } from './options';
import {
  noRedirectLoop,
  PROXY_STATUSES,
  ZCertificateEmail,
  ZDomain,
  ZEditProxyInput,
  ZLogLevel,
  ZPort,
  ZProxyStatus,
  ZServerIp,
  ZSiteDomain,
  ZSshPassword,
  ZSshUser,
  ZTargetServer,
} from './schemas';
import { ZLastFailure, ZServerSite } from './server-record';

// Request and response shapes of the proxy, checks and deployment calls (docs/PRODUCT.md#api).

export const ZUuid = z.uuid('validation.invalidId');
export const ZHostKeyFingerprint = z
  .string()
  .regex(/^SHA256:[A-Za-z0-9+/]{43}$/, 'validation.fingerprint.invalid');

export const ZIdParams = z.object({ id: ZUuid });
export const ZConfigurationIdParams = z.object({ configurationId: ZUuid });

/**
 * A saved SSH server named in place of the address and password (docs/PRODUCT.md#ssh-servers):
 * the server's address, port, user and secrets are used, none typed again.
 */
function serverOrAddress(
  v: { sshServerId?: string; serverIp?: string },
  ctx: z.RefinementCtx,
  secretField: string,
  secret: unknown,
) {
  if (v.sshServerId === undefined) {
    if (v.serverIp === undefined) {
      ctx.addIssue({ code: 'custom', path: ['serverIp'], message: 'validation.required' });
    }
    return;
  }
  for (const [field, value] of [
    ['serverIp', v.serverIp],
    [secretField, secret],
  ] as const) {
    if (value !== undefined) {
      ctx.addIssue({ code: 'custom', path: [field], message: 'validation.sshServer.either' });
    }
  }
}

/**
 * POST /api/proxy-configurations: creates, or updates when configurationId is the caller's.
 * Either the spec's serverIp, sshUser, sshPort and sshPassword (the server is saved for reuse),
 * or `sshServerId`, one of the caller's saved servers (its address, port and user are taken).
 */
export const ZSaveProxyInput = z
  .object({
    configurationId: ZUuid.optional(),
    sshServerId: ZUuid.optional(),
    serverIp: ZServerIp.optional(),
    domain: ZSiteDomain,
    sshUser: ZSshUser.default('root'),
    sshPort: ZPort.default(22),
    // Optional when resuming a configuration that already holds a password, or with sshServerId.
    sshPassword: ZSshPassword.optional(),
    email: ZCertificateEmail,
    targetServer: ZTargetServer.optional(),
    // What the SSH test observed; pinned on save (trust on first use).
    hostKeyFingerprint: ZHostKeyFingerprint.optional(),
    /**
     * Upstreams, headers, access and the rest (docs/PRODUCT.md#proxy-options); replace the stored
     * ones when sent. With upstreams, `targetServer` becomes their first.
     */
    options: ZProxyOptionsInput.optional(),
  })
  .superRefine((v, ctx) => {
    serverOrAddress(v, ctx, 'sshPassword', v.sshPassword);
    noRedirectLoop(v, ctx);
  });
export type TSaveProxyInput = z.infer<typeof ZSaveProxyInput>;

export const PROXY_SSH_AUTHS = ['password', 'server', 'none'] as const;
export const ZProxySshAuth = z.enum(PROXY_SSH_AUTHS);
export type TProxySshAuth = z.infer<typeof ZProxySshAuth>;

export const ZProxyConfiguration = z.object({
  id: z.string(),
  userId: z.string(),
  domain: z.string(),
  serverIp: z.string(),
  sshPort: z.number(),
  sshUser: z.string(),
  // Write-only secret: only whether one is stored (docs/PRODUCT.md#secrets-and-host-keys).
  /** The proxy's own password, entered for where it points. */
  hasSshPassword: z.boolean(),
  /** The saved SSH server it is on; null when none. */
  sshServerId: z.string().nullable(),
  /**
   * What a deployment logs in with: `password` the proxy's own, `server` its saved server's
   * (password or key; a deploy start says so when that server holds none), `none` nothing saved.
   */
  sshAuth: ZProxySshAuth,
  email: z.string(),
  targetServer: z.string().nullable(),
  /** Basic-auth passwords are write-only: each user answers `hasPassword`. */
  options: ZProxyOptionsView,
  status: ZProxyStatus,
  sslConfigured: z.boolean(),
  nginxConfigPath: z.string().nullable(),
  hostKeyFingerprint: z.string().nullable(),
  certificateExpiresAt: z.string().nullable(),
  lastDeployedAt: z.string().nullable(),
  /** Domain, target or server changed since the last successful deployment. */
  changedSinceDeploy: z.boolean(),
  /** What Portico has put on servers for this proxy (see server-record.ts); empty when nothing. */
  serverSites: z.array(ZServerSite),
  /** The last run failed: why, beside what it left on the server. Null after a success. */
  lastFailure: ZLastFailure.nullable(),
  customScriptName: z.string().nullable(),
  /**
   * Present only for a site adopted as it is (docs/PRODUCT.md#sites-on-this-server): its
   * hand-written file, which Portico never writes. `fileText` (as scanned) only on a single read.
   */
  adoption: z
    .object({
      file: z.string(),
      sha256: z.string(),
      fileText: z.string().optional(),
      /** When a scan or check first found the file changed by hand since adoption; null while unchanged. */
      changedAt: z.string().nullable(),
      /** When a check first found the file gone from the server; null while it is there. */
      missingAt: z.string().nullable(),
    })
    .optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TProxyConfiguration = z.infer<typeof ZProxyConfiguration>;

/**
 * Certificate filters of the proxy lists: `expiring` while the dates put the certificate last
 * seen served in warning or danger (shared/certificates/state.ts) and it has not expired yet;
 * `expired` once its notAfter has passed; `renewal_failing` when the server's renewal was
 * found not working.
 */
export const PROXY_CERTIFICATE_FILTERS = ['expiring', 'expired', 'renewal_failing'] as const;
export const PROXY_SORTS = ['created', 'expiry'] as const;

/** GET /api/user/proxy-configurations and /api/admin/all-proxies, for a page. */
export const ZProxyListQuery = ZPageQuery.extend({
  status: z.enum(PROXY_STATUSES, 'validation.list.filter').optional(),
  certificate: z.enum(PROXY_CERTIFICATE_FILTERS, 'validation.list.filter').optional(),
  /** The server address, exactly (any case). */
  server: z.string().trim().min(1, 'validation.required').max(255, 'validation.tooLong').optional(),
  /** The saved server the proxies are on (`sshServerId`): a server page's list. */
  sshServerId: ZUuid.optional(),
  /** `created`: newest first (the default); `expiry`: the certificate's end, soonest first. */
  sort: z.enum(PROXY_SORTS, 'validation.list.filter').optional(),
});
export type TProxyListQuery = z.infer<typeof ZProxyListQuery>;

/** Rows matching every filter but the status, per status; and per certificate filter. */
export const ZProxyListCounts = z.object({
  status: z.record(ZProxyStatus, z.number()),
  certificate: z.record(z.enum(PROXY_CERTIFICATE_FILTERS), z.number()),
});
export type TProxyListCounts = z.infer<typeof ZProxyListCounts>;

export const ZProxyPage = pageOf(ZProxyConfiguration).extend({ counts: ZProxyListCounts });
export type TProxyPage = z.infer<typeof ZProxyPage>;

export const ZSaveProxyResponse = z.object({ id: z.string() });

/** PUT /api/user/proxy-configurations/{id} and the admin twin. */
export { type TEditProxyInput, ZEditProxyInput } from './schemas';

export const ZCheckDuplicateInput = z.object({
  domain: ZSiteDomain,
  serverIp: ZServerIp,
  sshUser: ZSshUser.default('root'),
  configurationId: ZUuid.optional(),
});
export const ZCheckDuplicateResponse = z.object({
  isDuplicate: z.boolean(),
  /** The caller's own configuration with the domain; null when none, or another account's. */
  existingId: z.string().nullable(),
});
export type TCheckDuplicateResponse = z.infer<typeof ZCheckDuplicateResponse>;

/** The domain against an address, or against a saved server's (`sshServerId`). */
export const ZValidateDnsInput = z
  .object({ domain: ZDomain, serverIp: ZServerIp.optional(), sshServerId: ZUuid.optional() })
  .superRefine((v, ctx) => serverOrAddress(v, ctx, 'serverIp', undefined));
export type TValidateDnsInput = z.infer<typeof ZValidateDnsInput>;
export const ZDnsValidationResult = z.object({
  isValid: z.boolean(),
  resolvedIps: z.array(z.string()),
  expectedIp: z.string(),
  /** Plain words in the caller's language: no such domain, timeout, points elsewhere. */
  error: z.string().nullable(),
  /** The same as a text, so a screen shows it in its language of the moment. */
  text: ZText.nullable(),
});
export type TDnsValidationResult = z.infer<typeof ZDnsValidationResult>;

/**
 * An address, user and password (or a configuration's stored password), or `sshServerId`: a
 * saved server, logged in with its own address and secrets, nothing typed.
 */
export const ZTestSshInput = z
  .object({
    serverIp: ZServerIp.optional(),
    username: ZSshUser.optional(),
    port: ZPort.default(22),
    // Omitted when resuming: the stored password of configurationId is used.
    password: ZSshPassword.optional(),
    configurationId: ZUuid.optional(),
    sshServerId: ZUuid.optional(),
  })
  .superRefine((v, ctx) => {
    serverOrAddress(v, ctx, 'password', v.password);
    if (v.sshServerId === undefined && v.username === undefined) {
      ctx.addIssue({ code: 'custom', path: ['username'], message: 'validation.required' });
    }
    if (v.sshServerId !== undefined && v.configurationId !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['configurationId'],
        message: 'validation.sshServer.either',
      });
    }
  });
export type TTestSshInput = z.infer<typeof ZTestSshInput>;
export const ZSshTestResult = z.object({
  connected: z.boolean(),
  fingerprint: ZHostKeyFingerprint.nullable(),
  /** One uniform message in the caller's language; never echoes the password. */
  error: z.string().nullable(),
  /** The same as a text, so a screen shows it in its language of the moment. */
  text: ZText.nullable(),
});
export type TSshTestResult = z.infer<typeof ZSshTestResult>;

const ZDestinationStatus = z.enum(['online', 'offline', 'unknown']);
export const ZDestinationServer = z.object({
  id: z.string(),
  name: z.string(),
  endpoint: z.string(),
  description: z.string().nullable(),
  status: ZDestinationStatus,
  load: z.string().nullable(),
  latency: z.number().nullable(),
  isActive: z.boolean(),
  maintenanceNote: z.string().nullable(),
});
export type TDestinationServer = z.infer<typeof ZDestinationServer>;

export const ZUploadScriptResponse = z.object({ filename: z.string() });

export const ZDeployResponse = z.object({ success: z.literal(true), deploymentId: z.string() });
export type TDeployResponse = z.infer<typeof ZDeployResponse>;

/**
 * POST /api/proxy-configurations/{id}/plan: the plan of a deployment of the proxy as saved, or
 * of the edit given here (a new target, new options) before it is saved. Nothing else of the
 * proxy is planned: another domain or server is another site.
 */
export const ZPlanInput = z
  .object({
    targetServer: ZEditProxyInput.shape.targetServer.optional(),
    options: ZProxyOptionsInput.optional(),
  })
  .default({});
export type TPlanInput = z.infer<typeof ZPlanInput>;

export const ZPlannedFile = z.object({
  path: z.string(),
  kind: z.enum(['file', 'link']),
  change: z.enum(['create', 'update', 'remove', 'unchanged']),
  /** A unified diff against the file on the server now; '' when unchanged or too large. */
  diff: z.string(),
  tooLarge: z.boolean(),
  /** Readable only by root (and nginx) on the server, e.g. a password file: never shown. */
  private: z.boolean(),
});
export type TPlannedFile = z.infer<typeof ZPlannedFile>;

export const PLANNED_COMMAND_KINDS = [
  'install',
  'selinux',
  'start',
  'test',
  'reload',
  'certificate-issue',
  'certificate-keep',
  'certificate-upload',
  'certificate-upload-remove',
  'custom-script',
  'renewal-check',
] as const;

export const ZDeployPlan = z.object({
  /** Hand it to apply: the run stops before writing if the server's files changed since. */
  fingerprint: z.string(),
  family: z.enum(['debian', 'rhel']),
  files: z.array(ZPlannedFile),
  commands: z.array(z.object({ kind: z.enum(PLANNED_COMMAND_KINDS), command: z.string() })),
  certificate: z.enum(['issue', 'keep', 'upload', 'shared', 'none']),
  reload: z.boolean(),
  /** Some file or link would be created or changed. */
  changes: z.boolean(),
  /** The target the plan was made for (the proposed one, or the saved one). */
  targetServer: z.string(),
});
export type TDeployPlan = z.infer<typeof ZDeployPlan>;

/** POST /api/proxy-configurations/{id}/apply: deploys, unless the server changed since the plan. */
export const ZApplyPlanInput = z.object({
  fingerprint: z.string().regex(/^v1:[0-9a-f]{64}$/, 'validation.invalidRequest'),
});
export type TApplyPlanInput = z.infer<typeof ZApplyPlanInput>;

/**
 * POST /api/proxy-configurations/{id}/convert/plan: what converting an adopted site to
 * Portico's configuration removes and writes; `adoptedFile` the hand-written file it replaces.
 */
export const ZConvertPlan = ZDeployPlan.extend({ adoptedFile: z.string() });
export type TConvertPlan = z.infer<typeof ZConvertPlan>;

/** POST /api/proxy-configurations/{id}/convert: done, with the run's lines (reader's language). */
export const ZConvertResult = z.object({
  converted: z.literal(true),
  nginxConfigPath: z.string(),
  log: z.array(z.string()),
});
export type TConvertResult = z.infer<typeof ZConvertResult>;

export const ZDeploymentLogEntry = z.object({
  id: z.number(),
  configurationId: z.string(),
  deploymentId: z.string().nullable(),
  level: ZLogLevel,
  /** In the reader's language (Accept-Language); tool output verbatim. */
  message: z.string(),
  /** Portico's own line as a text the screen renders in its language; null for older lines. */
  text: ZText.nullable(),
  timestamp: z.string(),
});
export type TDeploymentLogEntry = z.infer<typeof ZDeploymentLogEntry>;

export {
  siteHasTraces,
  type TLastFailure,
  type TServerSite,
  ZLastFailure,
  ZServerSite,
} from './server-record';

export const ZDeleteProxyQuery = z.object({
  removeFromServer: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  removeCertificate: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
});

/**
 * The close code (RFC 6455 1008, policy violation) of a log socket the server will not serve:
 * not the caller's configuration, the session ended, or too many sockets open. Retrying cannot
 * help, so clients do not reconnect after it.
 */
export const WS_CLOSE_REFUSED = 1008;

/** Messages on /ws?configId= (docs/PRODUCT.md#logs-and-the-live-socket). Other types are ignored by clients. */
export const ZWsMessage = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('deployment_progress'),
    data: z.object({
      id: z.number(),
      deploymentId: z.string().nullable(),
      /** In the socket's language (?lang=, else Accept-Language). */
      message: z.string(),
      text: ZText.nullable().optional(),
      level: ZLogLevel,
      timestamp: z.string(),
    }),
  }),
  z.object({
    type: z.literal('deployment_status'),
    data: z.object({ status: ZProxyStatus, deploymentId: z.string().nullable() }),
  }),
]);
export type TWsMessage = z.infer<typeof ZWsMessage>;
