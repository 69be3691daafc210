import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, {
  type FastifyInstance,
  type FastifyServerOptions,
  type RouteOptions,
} from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type pino from 'pino';
import { DEFAULT_REQUEST_TIMEOUT_SECONDS, type TConfig } from './config';
import type { TDatabase } from './db/client';
import type { TQueue } from './jobs/queue';
import { batchedLogStream, type TLogStream } from './lib/log-stream';
import {
  DEFAULT_AUTH_RATE_LIMITS,
  DEFAULT_MESSAGE_RATE_LIMITS,
  type TAuthRateLimits,
} from './lib/rate-limits';
import { accountRoutes } from './modules/account/account.routes';
import { adminRoutes } from './modules/admin/admin.routes';
import { authRoutes } from './modules/auth/auth.routes';
import { backupRoutes } from './modules/backup/backup.routes';
import { certificatesRoutes } from './modules/certificates/certificates.routes';
import { wildcardUseRoutes } from './modules/certificates/wildcard-use.routes';
import { checksRoutes } from './modules/checks/checks.routes';
import { deploymentsRoutes } from './modules/deployments/deployments.routes';
import { wsGateway } from './modules/deployments/ws-gateway';
import { destinationsRoutes } from './modules/destinations/destinations.routes';
import { healthRoutes } from './modules/health/health.routes';
import type { TMailer } from './modules/notifications/mailer';
import { notificationsRoutes } from './modules/notifications/notifications.routes';
import { proxiesRoutes } from './modules/proxies/proxies.routes';
import { proxyConversionRoutes } from './modules/proxies/proxy-conversion.routes';
import { scriptsRoutes } from './modules/scripts/scripts.routes';
import { sessionsRoutes } from './modules/sessions/sessions.routes';
import { sshServersRoutes } from './modules/ssh-servers/ssh-servers.routes';
import { tokensRoutes } from './modules/tokens/tokens.routes';
import { transferRoutes } from './modules/transfer/transfer.routes';
import { callerPolicy } from './modules/two-factor/caller-policy';
import { twoFactorRoutes } from './modules/two-factor/two-factor.routes';
import { answerCache } from './plugins/answer-cache';
import { apiToken } from './plugins/api-token';
import { authGuard } from './plugins/auth-guard';
import { compress } from './plugins/compress';
import { csrf } from './plugins/csrf';
import { errors } from './plugins/errors';
import { requestLanguage } from './plugins/language';
import { rateLimit } from './plugins/rate-limit';
import { LOG_REDACTION, OneLinePerRequest, requestLoggerFactory } from './plugins/request-log';
import { securityHeaders } from './plugins/security-headers';
import { responseSerializer } from './plugins/serializer';
import { session } from './plugins/session';
import { staticFiles } from './plugins/static';
import { swagger } from './plugins/swagger';
import { buildServices, type TDeployOptions } from './services';

declare module 'fastify' {
  interface FastifyInstance {
    /** The job queue, started with the app and stopped on close (tests play workers with it). */
    queue: TQueue;
  }
}

export interface TAppOptions {
  config: Pick<TConfig, 'registration' | 'trustProxy' | 'logLevel'> &
    Partial<
      Pick<
        TConfig,
        | 'dnsServers'
        | 'secretKeyFile'
        | 'require2fa'
        | 'smtpUrl'
        | 'mailFrom'
        | 'webhookAllowPrivate'
        | 'sshAllowLoopback'
        | 'allowCustomNginx'
        | 'backups'
        | 'requestTimeoutSeconds'
        | 'limits'
      >
    >;
  database: TDatabase;
  sessionSecret: string;
  /** false silences logs (tests); otherwise pino at config.logLevel. */
  logger?: boolean | FastifyServerOptions['logger'];
  /** The built web app; defaults to apps/web/dist found from this file or the bundle. */
  webRoot?: string | null;
  /** Secret key file, engine settings (ACME, extra CA, DNS) for proxies and deployments. */
  deploy?: TDeployOptions;
  /** Probe destination servers every minute (pg-boss cron); off in tests unless asked for. */
  destinationProbe?: boolean;
  /**
   * Probe a destination as soon as an admin creates or edits it, instead of leaving it unknown
   * until the minute's probe. Off in tests unless asked for: the probe writes the row after the
   * answer, under tests that compare the database before and after a request.
   */
  probeOnSave?: boolean;
}

/**
 * What only tests replace, beside the options a Portico process starts with: the product never
 * sets them (server.ts), the test helpers do (apps/server/test/support/test-app.ts).
 */
export interface TAppOverrides {
  /** Sign-in limits; any left out are the defaults. */
  rateLimits?: Partial<TAuthRateLimits>;
  /** How often expired sessions are swept (0: never). */
  sessionSweepIntervalMs?: number;
  /** How long an unchanged session goes before its row and cookie expiry move (default 60 s). */
  sessionTouchAfterMs?: number;
  /** The time two-factor codes, token expiry and certificate states are judged by. Date.now. */
  clock?: () => number;
  /** Sends certificate alert e-mails instead of PORTICO_SMTP_URL. */
  mailer?: TMailer;
  /** How long a webhook call may take; 10 s. */
  webhookDeadlineMs?: number;
  /** Told of every route as it is added (the authorization matrix test lists them this way). */
  onRoute?: (route: RouteOptions) => void;
  /** Check every answer against its route's schema before sending it (see serializer.ts). */
  validateResponses?: boolean;
}

/** apps/web/dist: two levels up from src/app.ts and from the bundle dist/main.js alike. */
function findWebRoot(): string | undefined {
  const root = fileURLToPath(new URL('../../web/dist', import.meta.url));
  return existsSync(root) ? root : undefined;
}

/** The log stream of each app that writes to stdout (lib/log-stream.ts). */
const logStreams = new WeakMap<FastifyInstance, TLogStream>();

/** Writes out the log lines still batched (after start, so the listening line shows at once). */
export function flushLogs(app: FastifyInstance): void {
  logStreams.get(app)?.flush();
}

/** stdout's stream, also written out at least once a second. */
function batchedStdout() {
  const stream = batchedLogStream(1);
  const timer = setInterval(() => stream.flush(), 1000);
  timer.unref();
  return {
    stream,
    stop() {
      clearInterval(timer);
      stream.stop();
    },
  };
}

function loggerOptions(
  options: TAppOptions,
  stream: pino.DestinationStream | undefined,
): FastifyServerOptions['logger'] {
  if (options.logger === false) return false;
  if (options.logger && options.logger !== true) return options.logger;
  return {
    level: options.config.logLevel,
    stream,
    redact: LOG_REDACTION,
  };
}

/**
 * The deadline on a request's headers and body (PORTICO_REQUEST_TIMEOUT): a client that sends
 * headers and a Content-Length and then nothing is answered 408 and cut, instead of holding a
 * connection open forever. Node checks the deadlines every `connectionsCheckingInterval`, so a
 * request is cut between the deadline and a tenth of it later (at least 250 ms, at most 5 s).
 * An upgraded WebSocket (the live log) is no longer a request, so it is not cut.
 */
export function requestDeadlines(seconds: number) {
  const ms = seconds * 1000;
  return {
    requestTimeout: ms,
    http: {
      headersTimeout: ms,
      connectionsCheckingInterval: Math.min(5000, Math.max(250, ms / 10)),
    },
  };
}

/** Fastify takes a hop count at runtime but not in its types: the same rule as a function. */
function trustProxyOption(value: TConfig['trustProxy']) {
  if (typeof value !== 'number') return value;
  return (_address: string, hop: number) => hop < value;
}

export async function buildApp(
  options: TAppOptions,
  overrides: TAppOverrides = {},
): Promise<FastifyInstance> {
  const logs = options.logger === undefined || options.logger === true ? batchedStdout() : null;
  const requestLog = new OneLinePerRequest();
  const app = Fastify({
    logger: loggerOptions(options, logs?.stream),
    logController: requestLog,
    childLoggerFactory: requestLoggerFactory,
    trustProxy: trustProxyOption(options.config.trustProxy),
    bodyLimit: 1024 * 1024,
    ...requestDeadlines(options.config.requestTimeoutSeconds ?? DEFAULT_REQUEST_TIMEOUT_SECONDS),
  });
  requestLog.useLogger(app.log);
  if (logs) {
    logStreams.set(app, logs.stream);
    app.addHook('onClose', async () => logs.stop());
  }
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializer({ validate: overrides.validateResponses }));
  // Before any plugin, so no route is added unseen.
  if (overrides.onRoute) app.addHook('onRoute', overrides.onRoute);

  // One key file for every reader of stored secrets (the SSH test, proxies, deployments,
  // two-factor); an app given none (tests) gets a fresh key in a temporary directory.
  const keyDir = options.config.secretKeyFile
    ? undefined
    : mkdtempSync(join(tmpdir(), 'portico-key-'));
  const secretKeyFile = options.config.secretKeyFile ?? join(keyDir!, 'secret.key');
  if (keyDir) app.addHook('onClose', async () => rmSync(keyDir, { recursive: true, force: true }));

  const services = await buildServices({
    config: options.config,
    database: options.database,
    secretKeyFile,
    deploy: options.deploy,
    destinationProbe: options.destinationProbe,
    probeOnSave: options.probeOnSave,
    clock: overrides.clock,
    mailer: overrides.mailer,
    webhookDeadlineMs: overrides.webhookDeadlineMs,
    log: app.log,
  });
  app.decorate('queue', services.queue);
  app.addHook('onReady', services.ready);
  app.addHook('onClose', services.close);
  const rateLimits = { ...DEFAULT_AUTH_RATE_LIMITS, ...overrides.rateLimits };
  const policy = services.twoFactorPolicy;

  // Order matters: hooks run in registration order (headers, session, then the CSRF check).
  await app.register(requestLanguage);
  await app.register(errors);
  await app.register(securityHeaders);
  await app.register(session, {
    secret: options.sessionSecret,
    repository: services.sessionsRepository,
    cache: options.database.kind === 'pglite',
    sweepIntervalMs: overrides.sessionSweepIntervalMs,
    touchAfterMs: overrides.sessionTouchAfterMs,
  });
  // Before CSRF: a request with a valid API token needs no CSRF token.
  await app.register(apiToken, { tokens: services.tokens });
  await app.register(csrf);
  await app.register(rateLimit, { store: services.rateLimitStore });
  await app.register(authGuard, { auth: services.auth, checkCaller: callerPolicy(policy) });
  await app.register(answerCache, { writes: options.database.writes });
  // After the answer cache: it keeps the answer as serialized, before compression.
  await app.register(compress);
  await app.register(swagger);

  // Every route module, each given the services it calls.
  await app.register(healthRoutes, { health: services.health });
  await app.register(authRoutes, {
    auth: services.auth,
    rateLimits,
    twoFactor: services.twoFactor,
    twoFactorPolicy: policy,
  });
  // The settings page's API (docs/PRODUCT.md#settings), under /api/account, for a signed-in
  // browser session only: profile, e-mail and password, two-factor, API tokens, sessions,
  // notifications.
  await app.register(accountRoutes, {
    account: services.account,
    reauth: rateLimits.reauth,
    policy,
  });
  await app.register(twoFactorRoutes, { twoFactor: services.twoFactor, reauth: rateLimits.reauth });
  await app.register(tokensRoutes, { tokens: services.tokens, reauth: rateLimits.reauth });
  await app.register(sessionsRoutes, { sessions: services.accountSessions });
  await app.register(notificationsRoutes, {
    notifications: services.notifications,
    limits: DEFAULT_MESSAGE_RATE_LIMITS,
  });
  await app.register(checksRoutes, { dns: services.dns, ssh: services.sshTest });
  await app.register(destinationsRoutes, { destinations: services.destinations });
  await app.register(adminRoutes, { admin: services.admin, limits: services.limits });
  await app.register(backupRoutes, { backups: services.backups });
  await app.register(scriptsRoutes, { scripts: services.scripts });
  await app.register(proxiesRoutes, { proxies: services.proxies });
  await app.register(proxyConversionRoutes, { conversion: services.conversion });
  await app.register(transferRoutes, { transfer: services.transfer });
  await app.register(sshServersRoutes, {
    sshServers: services.sshServers,
    serverChecks: services.serverChecks,
    siteScans: services.siteScans,
    serverActions: services.serverActions,
    serverRuns: services.serverRuns,
  });
  await app.register(deploymentsRoutes, {
    deployments: services.deployments,
    plans: services.plans,
  });
  await app.register(certificatesRoutes, {
    certificates: services.certificates,
    dnsChallenges: services.dnsChallenges,
    deployments: services.deployments,
  });
  await app.register(wildcardUseRoutes, { wildcardUses: services.wildcardUses });
  await wsGateway(app, {
    bus: services.bus,
    liveLog: services.liveLog,
    sessionRecheckMs: options.deploy?.socketSessionRecheckMs,
    sessionEnds: services.sessionEnds,
  });

  await app.register(staticFiles, {
    root: options.webRoot === undefined ? findWebRoot() : (options.webRoot ?? undefined),
  });
  return app;
}
