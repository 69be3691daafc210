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
import pino from 'pino';
import type { TConfig } from './config';
import type { TDatabase } from './db/client';
import { accountPlugin } from './modules/account/account.plugin';
import { adminRoutes } from './modules/admin/admin.routes';
import { createAuditRepository } from './modules/audit/audit.repository';
import { createAuditService } from './modules/audit/audit.service';
import { authRoutes } from './modules/auth/auth.routes';
import { createAuthService } from './modules/auth/auth.service';
import { checksRoutes } from './modules/checks/checks.routes';
import {
  proxiesAndDeployments,
  type TDeployOptions,
} from './modules/deployments/deployments.plugin';
import { registerDestinationProbe } from './modules/destinations/destination-probe';
import { destinationsRoutes } from './modules/destinations/destinations.routes';
import { healthRoutes } from './modules/health/health.routes';
import { createAlerts } from './modules/notifications/alerts';
import type { TMailer } from './modules/notifications/mailer';
import { createNotificationsRepository } from './modules/notifications/notifications.repository';
import { notificationsRoutes } from './modules/notifications/notifications.routes';
import { createNotificationsService } from './modules/notifications/notifications.service';
import { scriptsRoutes } from './modules/scripts/scripts.routes';
import { createSessionsRepository } from './modules/sessions/sessions.repository';
import { createTokensRepository } from './modules/tokens/tokens.repository';
import { createTokensService } from './modules/tokens/tokens.service';
import { callerPolicy } from './modules/two-factor/caller-policy';
import { createRecoveryCodesRepository } from './modules/two-factor/recovery-codes.repository';
import { createTwoFactorService } from './modules/two-factor/two-factor.service';
import { createUsersRepository } from './modules/users/users.repository';
import { createUsersService } from './modules/users/users.service';
import { apiToken } from './plugins/api-token';
import { authGuard } from './plugins/auth-guard';
import { csrf } from './plugins/csrf';
import { errors } from './plugins/errors';
import { DEFAULT_AUTH_RATE_LIMITS, rateLimit, type TAuthRateLimits } from './plugins/rate-limit';
import { OneLinePerRequest } from './plugins/request-log';
import { securityHeaders } from './plugins/security-headers';
import { responseSerializer } from './plugins/serializer';
import { session } from './plugins/session';
import { staticFiles } from './plugins/static';
import { swagger } from './plugins/swagger';
import { createSessionEnds } from './realtime/session-ends';

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
      >
    >;
  database: TDatabase;
  sessionSecret: string;
  /** false silences logs (tests); otherwise pino at config.logLevel. */
  logger?: boolean | FastifyServerOptions['logger'];
  /** Sign-in limits; any left out are the defaults. */
  rateLimits?: Partial<TAuthRateLimits>;
  /** The built web app; defaults to apps/web/dist found from this file or the bundle. */
  webRoot?: string | null;
  sessionSweepIntervalMs?: number;
  /** Secret key file, engine settings (ACME, extra CA, DNS) for proxies and deployments. */
  deploy?: TDeployOptions;
  /** Probe destination servers every minute (pg-boss cron); off in tests unless asked for. */
  destinationProbe?: boolean;
  /**
   * The time two-factor codes, token expiry and certificate states are judged by; tests move
   * it. Date.now.
   */
  clock?: () => number;
  /** Sends certificate alert e-mails instead of PORTICO_SMTP_URL (tests). */
  mailer?: TMailer;
  /**
   * Probe a destination as soon as an admin creates or edits it, instead of leaving it unknown
   * until the minute's probe. Off in tests unless asked for: the probe writes the row after the
   * answer, under tests that compare the database before and after a request.
   */
  probeOnSave?: boolean;
  /** Told of every route as it is added (the authorization matrix test lists them this way). */
  onRoute?: (route: RouteOptions) => void;
  /** Check every answer against its route's schema before sending it (tests; see serializer.ts). */
  validateResponses?: boolean;
}

/** apps/web/dist: two levels up from src/app.ts and from the bundle dist/main.js alike. */
export function findWebRoot(): string | undefined {
  const root = fileURLToPath(new URL('../../web/dist', import.meta.url));
  return existsSync(root) ? root : undefined;
}

/**
 * Log lines go to stdout in batches of ~4 kB (or after at most a second) rather than one write
 * per line: a line per request was one system call per request. What is left is written at
 * close, and pino writes it synchronously should the process exit otherwise.
 */
const logStreams = new WeakMap<FastifyInstance, pino.DestinationStream & { flush(): void }>();

/** Writes out the log lines still batched (after start, so the listening line shows at once). */
export function flushLogs(app: FastifyInstance): void {
  logStreams.get(app)?.flush();
}

function batchedStdout() {
  const stream = pino.destination({ dest: 1, minLength: 4096, sync: false });
  const timer = setInterval(() => stream.flush(), 1000);
  timer.unref();
  return {
    stream,
    stop() {
      clearInterval(timer);
      stream.flushSync();
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
    // Never a password, cookie or token in a log line, whatever a plugin decides to log.
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers.authorization',
        'req.headers["x-csrf-token"]',
        'res.headers["set-cookie"]',
        '*.password',
        '*.passwordHash',
        '*.sshPassword',
      ],
      censor: '[redacted]',
    },
  };
}

/** Fastify takes a hop count at runtime but not in its types: the same rule as a function. */
function trustProxyOption(value: TConfig['trustProxy']) {
  if (typeof value !== 'number') return value;
  return (_address: string, hop: number) => hop < value;
}

export async function buildApp(options: TAppOptions): Promise<FastifyInstance> {
  const logs = options.logger === undefined || options.logger === true ? batchedStdout() : null;
  const app = Fastify({
    logger: loggerOptions(options, logs?.stream),
    logController: new OneLinePerRequest(),
    trustProxy: trustProxyOption(options.config.trustProxy),
    bodyLimit: 1024 * 1024,
  });
  if (logs) {
    logStreams.set(app, logs.stream);
    app.addHook('onClose', async () => logs.stop());
  }
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializer({ validate: options.validateResponses }));
  // Before any plugin, so no route is added unseen.
  if (options.onRoute) app.addHook('onRoute', options.onRoute);

  const { db } = options.database;
  // PGlite: this process is the only one on the data dir (lock), so read caches stay coherent.
  const soleWriter = options.database.kind === 'pglite';
  const users = createUsersService(createUsersRepository(db, { cacheById: soleWriter }));
  const auth = createAuthService(users, { registration: options.config.registration });
  const rateLimits = { ...DEFAULT_AUTH_RATE_LIMITS, ...options.rateLimits };
  const audit = createAuditService(createAuditRepository(db));
  const tokens = createTokensService({
    repository: createTokensRepository(db),
    audit,
    now: options.clock,
  });
  const twoFactorPolicy = options.config.require2fa ?? 'off';
  const sessionEnds = createSessionEnds();

  // One key file for every reader of stored secrets (the SSH test, proxies, deployments,
  // two-factor); an app given none (tests) gets a fresh key in a temporary directory.
  const keyDir = options.config.secretKeyFile
    ? undefined
    : mkdtempSync(join(tmpdir(), 'portico-key-'));
  const secretKeyFile = options.config.secretKeyFile ?? join(keyDir!, 'secret.key');
  if (keyDir) app.addHook('onClose', async () => rmSync(keyDir, { recursive: true, force: true }));
  const twoFactor = createTwoFactorService({
    users,
    recoveryCodes: createRecoveryCodesRepository(db),
    audit,
    secretKeyFile,
    policy: twoFactorPolicy,
    now: options.clock,
  });

  // Order matters: hooks run in registration order (headers, session, then the CSRF check).
  await app.register(errors);
  await app.register(securityHeaders);
  await app.register(session, {
    secret: options.sessionSecret,
    repository: createSessionsRepository(db),
    cache: soleWriter,
    sweepIntervalMs: options.sessionSweepIntervalMs,
  });
  // Before CSRF: a request with a valid API token needs no CSRF token.
  await app.register(apiToken, { tokens });
  await app.register(csrf);
  await app.register(rateLimit);
  await app.register(authGuard, { auth, checkCaller: callerPolicy(twoFactorPolicy) });
  await app.register(swagger);

  await app.register(healthRoutes, { database: options.database });
  await app.register(authRoutes, { auth, rateLimits, twoFactor, twoFactorPolicy, audit });
  await app.register(accountPlugin, {
    db,
    users,
    audit,
    tokens,
    twoFactor,
    sessionEnds,
    rateLimits,
    policy: twoFactorPolicy,
  });
  const notifications = createNotificationsService({
    repository: createNotificationsRepository(db),
    users,
    audit,
    secretKeyFile,
    config: {
      smtpUrl: options.config.smtpUrl,
      mailFrom: options.config.mailFrom,
      webhookAllowPrivate: options.config.webhookAllowPrivate ?? false,
    },
    mailer: options.mailer,
    log: app.log,
  });
  const now = () => new Date(options.clock?.() ?? Date.now());
  const alerts = createAlerts({
    notifications,
    findUser: (id) => users.findById(id),
    listUsers: () => users.list(),
    now,
  });
  await app.register(notificationsRoutes, { notifications });
  await app.register(checksRoutes, {
    database: options.database,
    config: { ...options.config, secretKeyFile },
  });
  await app.register(destinationsRoutes, {
    database: options.database,
    probeOnSave: options.probeOnSave ?? false,
  });
  await app.register(adminRoutes, { database: options.database, users });
  await app.register(scriptsRoutes, { database: options.database });
  await app.register(proxiesAndDeployments, {
    database: options.database,
    ...options.deploy,
    secretKeyFile,
    sessionEnds,
    alerts,
    now,
    allowLoopback: options.config.sshAllowLoopback ?? false,
  });
  if (options.destinationProbe && options.deploy?.workers !== 0) {
    await registerDestinationProbe(app.boss, options.database, {
      onError: (error) => app.log.warn({ err: error }, 'destination probe failed'),
    });
  }

  await app.register(staticFiles, {
    root: options.webRoot === undefined ? findWebRoot() : (options.webRoot ?? undefined),
  });
  return app;
}
