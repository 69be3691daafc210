import { LIMIT_DEFAULTS } from '@portico/shared/admin/limits';
import { buildCertificateServices } from './certificate-services';
import type { TConfig } from './config';
import type { TDatabase, TDb } from './db/client';
import { scheduleUpkeep } from './db/pglite-upkeep';
import { keptProxyListCounts } from './db/proxy-lists';
import { transactionOver } from './db/transaction';
import { LETS_ENCRYPT_DIRECTORY } from './deploy/acme';
import {
  convertSite,
  NginxDumpCache,
  planConversion,
  planDeployment,
  removeSite,
  runCertificateAction,
  runDeployment,
  type TEngineSettings,
} from './deploy/engine';
import { startQueue, type TQueue } from './jobs/queue';
import { JOB_TIMING, SERVER_RUN_QUEUE } from './jobs/queues';
import { createScheduledRunsRepository } from './jobs/scheduled-runs.repository';
import { createSharedLocks } from './jobs/shared-locks';
import { createWorkerLiveness } from './jobs/worker-liveness';
import { secretBoxLoader } from './lib/secrets';
import { createAccountService } from './modules/account/account.service';
import { accountTransaction } from './modules/account/account-writes';
import { createAdminRepository } from './modules/admin/admin.repository';
import { createAdminService } from './modules/admin/admin.service';
import { createAuditRepository } from './modules/audit/audit.repository';
import { createAuditService } from './modules/audit/audit.service';
import { createAuthService } from './modules/auth/auth.service';
import { createBackupRunsRepository } from './modules/backup/backup-runs.repository';
import { backupStatus, registerBackupJob } from './modules/backup/scheduled-backup';
import { createChecksRepository } from './modules/checks/checks.repository';
import { createDnsService } from './modules/checks/dns.service';
import { createSshTestService } from './modules/checks/ssh-test.service';
import { createCertificateActionHistory } from './modules/deployments/certificate-action-history.repository';
import { runDeployJob } from './modules/deployments/deploy-job';
import type { TEngine, TRunTiming } from './modules/deployments/deploy-job-deps';
import { createPlansService } from './modules/deployments/deploy-plans';
import { createDeployWorkers } from './modules/deployments/deploy-workers';
import { deploymentEnd } from './modules/deployments/deployment-end';
import { scheduleReaper } from './modules/deployments/deployment-reaper';
import { createDeploymentsRepository } from './modules/deployments/deployments.repository';
import { createDeploymentsService } from './modules/deployments/deployments.service';
import { createLiveLogService } from './modules/deployments/live-log.service';
import { createLogBus } from './modules/deployments/log-bus';
import { createRunLog, progressMessage } from './modules/deployments/run-log';
import {
  createImmediateProber,
  registerDestinationProbe,
} from './modules/destinations/destination-probe';
import { createDestinationsRepository } from './modules/destinations/destinations.repository';
import { createDestinationsService } from './modules/destinations/destinations.service';
import { createHealthService } from './modules/health/health.service';
import { createLimitsRepository } from './modules/limits/limits.repository';
import { createLimitGuard, createLimitsService } from './modules/limits/limits.service';
import type { TMailer } from './modules/notifications/mailer';
import { createNotificationsRepository } from './modules/notifications/notifications.repository';
import { createProxiesRepository } from './modules/proxies/proxies.repository';
import { createProxiesService } from './modules/proxies/proxies.service';
import { createProxiesOnServers } from './modules/proxies/proxies-on-servers.repository';
import { createProxyAdoption } from './modules/proxies/proxy-adoption';
import { createProxyCertificateReads } from './modules/proxies/proxy-certificates.repository';
import { createProxyConversion } from './modules/proxies/proxy-conversion';
import { createProxyCredentials } from './modules/proxies/proxy-credentials.repository';
import { createProxyOwnerReads } from './modules/proxies/proxy-owners.repository';
import { createProxyTransfer } from './modules/proxies/proxy-transfer.repository';
import { createRateLimitHitsRepository } from './modules/rate-limits/rate-limit-hits.repository';
import { databaseRateLimitStore } from './modules/rate-limits/rate-limit-store';
import { createScriptsService } from './modules/scripts/scripts.service';
import { createSessionEnds } from './modules/sessions/session-ends';
import { createSessionsRepository } from './modules/sessions/sessions.repository';
import { createAccountSessions } from './modules/sessions/sessions.service';
import { moveProxyPasswordsToServers } from './modules/ssh-servers/password-backfill';
import { createServerActionsService } from './modules/ssh-servers/server-actions.service';
import { createServerCheckService } from './modules/ssh-servers/server-check.service';
import { createServerCredentials } from './modules/ssh-servers/server-credentials';
import { createServerReads } from './modules/ssh-servers/server-reads.repository';
import { createServerRunsRepository } from './modules/ssh-servers/server-runs.repository';
import { createServerRunsService } from './modules/ssh-servers/server-runs.service';
import { createSiteScanService } from './modules/ssh-servers/site-scan.service';
import { createSshServersRepository } from './modules/ssh-servers/ssh-servers.repository';
import { createSshServersService } from './modules/ssh-servers/ssh-servers.service';
import { createTokensRepository } from './modules/tokens/tokens.repository';
import { createTokensService } from './modules/tokens/tokens.service';
import { createTransferRepository } from './modules/transfer/transfer.repository';
import { createTransferService } from './modules/transfer/transfer.service';
import { createRecoveryCodesRepository } from './modules/two-factor/recovery-codes.repository';
import { createTwoFactorService } from './modules/two-factor/two-factor.service';
import { createUserDirectory } from './modules/users/user-directory.repository';
import { createUserReads } from './modules/users/user-reads.repository';
import { createUsersRepository } from './modules/users/users.repository';
import { createUsersService } from './modules/users/users.service';

export interface TDeployOptions {
  settings?: TEngineSettings;
  engine?: TEngine;
  /** Deploy runs this instance works at once; 0 makes an instance that only serves the API. */
  workers?: number;
  /** How often log sockets check that their session still exists (tests shorten it). */
  socketSessionRecheckMs?: number;
  /** A run's time limit and its grace to stop (JOB_TIMING; tests shorten them). */
  timing?: TRunTiming;
  /** A per-server run's time limit (JOB_TIMING.serverRunDeadlineMs; tests shorten it). */
  serverRunDeadlineMs?: number;
}

export interface TServicesOptions {
  config: Pick<TConfig, 'registration'> &
    Partial<
      Pick<
        TConfig,
        | 'dnsServers'
        | 'require2fa'
        | 'smtpUrl'
        | 'mailFrom'
        | 'webhookAllowPrivate'
        | 'sshAllowLoopback'
        | 'allowCustomNginx'
        | 'backups'
        | 'limits'
      >
    >;
  database: TDatabase;
  /** The one key file every reader of stored secrets opens. */
  secretKeyFile: string;
  deploy?: TDeployOptions;
  /** Probe destinations every minute (pg-boss cron), in instances that run workers. */
  destinationProbe?: boolean;
  /** Probe a destination as soon as an admin creates or edits it. */
  probeOnSave?: boolean;
  clock?: () => number;
  /** Sends certificate alert e-mails instead of PORTICO_SMTP_URL (tests). */
  mailer?: TMailer;
  webhookDeadlineMs?: number;
  log: {
    info(msg: string): void;
    warn(obj: unknown, msg: string): void;
    error(obj: unknown, msg: string): void;
  };
}

/**
 * The composition root: every repository, service, the queue and the secret store, built once
 * for the app. Route plugins receive the services; nothing else builds one. `ready` starts the
 * background work (the first reap); `close` stops it all in order.
 */
export async function buildServices(options: TServicesOptions) {
  const { database, log } = options;
  const { db } = database;
  const warn = (msg: string) => (error: unknown) => log.warn({ err: error }, msg);
  // PGlite: this process is the only one on the data dir (lock), so read caches stay coherent.
  const soleWriter = database.kind === 'pglite';
  const twoFactorPolicy = options.config.require2fa ?? 'off';
  const allowLoopback = options.config.sshAllowLoopback ?? false;

  const usersRepository = createUsersRepository(db, { cacheById: soleWriter });
  // The one opener of the key file for every reader of stored secrets.
  const secretBox = secretBoxLoader(options.secretKeyFile);
  const sessionsRepository = createSessionsRepository(db, { batchReads: true });
  // The proxy lists' counts, kept while their tables are unchanged (PGlite only).
  const listCounts = keptProxyListCounts(database.writes);
  const proxiesRepository = createProxiesRepository(db, { batchReads: true, listCounts });
  const deploymentsRepository = createDeploymentsRepository(db);
  const destinationsRepository = createDestinationsRepository(db);

  const users = createUsersService(usersRepository);
  const auth = createAuthService(users, { registration: options.config.registration });
  const audit = createAuditService(createAuditRepository(db));
  const accountWrites = accountTransaction(db, usersRepository);
  const sessionEnds = createSessionEnds();
  const accountSessions = createAccountSessions({
    repository: sessionsRepository,
    transaction: accountWrites,
    sessionEnds,
  });
  const twoFactor = createTwoFactorService({
    users,
    recoveryCodes: createRecoveryCodesRepository(db),
    transaction: accountWrites,
    sessions: accountSessions,
    secretBox,
    policy: twoFactorPolicy,
    now: options.clock,
  });
  // How many of each thing one account may hold: checked inside each create's transaction.
  const limitDefaults = { ...LIMIT_DEFAULTS, ...options.config.limits };
  // What the limits count, asked of the modules that own the rows.
  const limitsReads = {
    proxies: createProxyOwnerReads,
    servers: createServerReads,
    tokens: createTokensRepository,
    notifications: createNotificationsRepository,
    users: createUserReads,
  };
  const limitGuard = (tx: TDb) =>
    createLimitGuard(createLimitsRepository(tx, limitsReads), limitDefaults);
  const limits = createLimitsService({
    repository: createLimitsRepository(db, limitsReads),
    transaction: transactionOver(db, (tx) => ({
      repository: createLimitsRepository(tx, limitsReads),
      audit: createAuditService(createAuditRepository(tx)),
    })),
    defaults: limitDefaults,
  });
  const tokens = createTokensService({
    repository: createTokensRepository(db),
    transaction: transactionOver(db, (tx) => ({
      repository: createTokensRepository(tx),
      audit: createAuditService(createAuditRepository(tx)),
      limits: limitGuard(tx),
    })),
    confirmIdentity: twoFactor.confirmIdentity,
    now: options.clock,
  });
  const account = createAccountService({
    users,
    sessions: accountSessions,
    transaction: accountWrites,
  });

  const sshServersRepository = createSshServersRepository(db, createProxiesOnServers);
  // A server's owner as the saved servers show it: asked of the users module.
  const serverOwners = createUserReads(db);
  // The one rule of which credential goes to which host (test, deploy, removal, actions).
  const secrets = createServerCredentials(secretBox, sshServersRepository.findById, {
    pin: (id, fingerprint, target) =>
      sshServersRepository.pinHostKey(id, fingerprint, {
        host: target.serverIp,
        port: target.sshPort,
      }),
    forget: sshServersRepository.forgetHostKey,
  });

  const checksRepository = createChecksRepository(db, {
    proxies: createProxyCredentials,
    servers: createServerReads,
  });
  const dns = createDnsService({
    servers: options.config.dnsServers ?? [],
    repository: checksRepository,
  });
  const sshTest = createSshTestService({
    repository: checksRepository,
    credentials: secrets,
    allowLoopback,
  });

  const prober = options.probeOnSave
    ? createImmediateProber(destinationsRepository, { onError: warn('destination probe failed') })
    : undefined;
  const destinations = createDestinationsService(destinationsRepository, prober);

  const deploy = options.deploy ?? {};
  const engine = deploy.engine ?? { runDeployment, removeSite, runCertificateAction };
  // One run at a time per server across every instance on the database (PostgreSQL).
  const sharedLocks = createSharedLocks(database);
  const allowCustomNginx = options.config.allowCustomNginx ?? false;
  // Each server's last trusted nginx dump, for this process's runs (a preflight parse less).
  const dumps = new NginxDumpCache();
  const settings = () => ({
    ...(deploy.settings ?? { acmeDirectoryUrl: LETS_ENCRYPT_DIRECTORY }),
    allowLoopback,
    allowCustomNginx,
    sharedLocks,
    dumps,
  });
  const queue: TQueue = await startQueue(database, (error) =>
    log.error({ err: error }, 'job queue error'),
  );
  const bus = await createLogBus({
    database,
    loadLog: async (id) => {
      const row = await deploymentsRepository.findLog(id);
      return row ? progressMessage(row) : undefined;
    },
    onError: warn('log fan-out error'),
  });
  const liveness = await createWorkerLiveness(database);
  const runLog = createRunLog({ deployments: deploymentsRepository, bus });

  // A proxy's writes: the row, its audit row and the account's proxy limit (also adoption's).
  const proxyWrites = transactionOver(db, (tx) => ({
    repository: createProxiesRepository(tx),
    sshServers: createSshServersRepository(tx, createProxiesOnServers),
    audit: createAuditService(createAuditRepository(tx)),
    limits: limitGuard(tx),
  }));
  const proxies = createProxiesService({
    repository: proxiesRepository,
    sshServers: sshServersRepository,
    secrets,
    transaction: proxyWrites,
    settings,
    removeSite: engine.removeSite,
    allowCustomNginx,
    timing: deploy.timing,
    onStatus: (row) => runLog.status(row, null),
  });
  const conversion = createProxyConversion({
    repository: proxiesRepository,
    secrets,
    settings,
    transaction: proxyWrites,
    load: (id, actor) => proxies.load(id, actor),
    planConversion,
    convertSite,
  });
  const sshServers = createSshServersService({
    repository: sshServersRepository,
    credentials: secrets,
    transaction: transactionOver(db, (tx) => ({
      repository: createSshServersRepository(tx, createProxiesOnServers),
      audit: createAuditService(createAuditRepository(tx)),
      limits: limitGuard(tx),
    })),
    owners: serverOwners,
  });
  // A user's servers and proxies as JSON, to move between instances (issue 42).
  const transferReads = { proxies: createProxyTransfer, servers: createServerReads };
  const transfer = createTransferService({
    repository: createTransferRepository(db, transferReads),
    credentials: secrets,
    transaction: transactionOver(db, (tx) => ({
      repository: createTransferRepository(tx, transferReads),
      audit: createAuditService(createAuditRepository(tx)),
      limits: limitGuard(tx),
    })),
    audit,
    allowCustomNginx,
    now: options.clock ? () => new Date(options.clock!()) : undefined,
  });
  // "Check now" and the site scan log in the same way and write through the same scope.
  const serverLogin = {
    repository: sshServersRepository,
    credentials: secrets,
    transaction: transactionOver(db, (tx) => ({
      repository: createSshServersRepository(tx, createProxiesOnServers),
      audit: createAuditService(createAuditRepository(tx)),
    })),
    owners: serverOwners,
    allowLoopback,
  };
  const serverChecks = createServerCheckService(serverLogin);
  const siteScans = createSiteScanService({
    ...serverLogin,
    adoptSites: createProxyAdoption(proxyWrites),
  });
  const adminReads = {
    // Kept counts only over the app's handle: a transaction's reads see its own writes.
    proxies: (handle: TDb) => createProxyOwnerReads(handle, handle === db ? listCounts : undefined),
    servers: createServerReads,
    audit: createAuditRepository,
    users: createUserDirectory,
  };
  const admin = createAdminService({
    repository: createAdminRepository(db, adminReads),
    transaction: transactionOver(db, (tx) => ({
      repository: createAdminRepository(tx, adminReads),
      users: createUsersService(usersRepository.within(tx)),
      audit: createAuditService(createAuditRepository(tx)),
    })),
    editProxy: proxies.edit,
  });
  const scripts = createScriptsService({
    saveOnOwnConfiguration: proxiesRepository.saveCustomScript,
  });
  const workerCount = deploy.workers ?? JOB_TIMING.concurrency;

  const { notifications, certificates, dnsChallenges, wildcardUses, hooks } =
    await buildCertificateServices({
      db,
      queue,
      users,
      proxies,
      serverFacts: async (id) => (await sshServersRepository.findById(id))?.facts ?? null,
      secretBox,
      config: options.config,
      limitGuard,
      mailer: options.mailer,
      webhookDeadlineMs: options.webhookDeadlineMs,
      now: () => new Date(options.clock?.() ?? Date.now()),
      extraCaFile: settings().extraCaFile,
      work: workerCount > 0,
      log,
    });

  // A run's writes: its start (the claim and the run) and its end (the run and the configuration).
  const runWrites = transactionOver(db, (tx) => ({
    deployments: createDeploymentsRepository(tx),
    proxies: createProxiesRepository(tx),
    certificateActions: createCertificateActionHistory(tx, createProxyCertificateReads),
  }));
  const workers = createDeployWorkers({
    queue,
    count: workerCount,
    run: (jobId, data, signal) =>
      runDeployJob(
        {
          deployments: deploymentsRepository,
          proxies: proxiesRepository,
          transaction: runWrites,
          runLog,
          liveness,
          secrets,
          runDeployment: engine.runDeployment,
          runCertificateAction: engine.runCertificateAction,
          certificates: hooks,
          settings,
          log,
          timing: deploy.timing,
          // A test's engine reaches no server: there are no facts to read after its runs.
          refreshServerFacts: deploy.engine
            ? undefined
            : (serverId, signal) => serverChecks.refreshFacts(serverId, signal),
        },
        jobId,
        data,
        signal,
      ),
  });
  await workers.start();
  const deployments = createDeploymentsService({
    deployments: deploymentsRepository,
    proxies: proxiesRepository,
    proxiesService: proxies,
    runLog,
    audit,
    queue,
    transaction: runWrites,
    credentials: secrets,
    servesUpload: hooks.servesUpload,
    usesWildcard: wildcardUses.usedBy,
  });
  const plans = createPlansService({
    proxiesService: proxies,
    credentials: secrets,
    deployments,
    settings,
    planDeployment,
    uploadedCertificate: hooks.uploadedCertificate,
    dnsChallenge: hooks.dnsChallenge,
    sharedWildcard: hooks.sharedWildcard,
  });
  // "Redeploy all" and "check all certificates" as background runs on their own queue, worked
  // where deploy workers run; stopped (left for the next start's sweep) when the app closes.
  const serverRunDeadlineMs = deploy.serverRunDeadlineMs ?? JOB_TIMING.serverRunDeadlineMs;
  const serverRunsStop = new AbortController();
  let serverRunJobs: Awaited<ReturnType<typeof queue.onDemand<{ runId: string }>>> | undefined;
  const serverRuns = createServerRunsService({
    servers: sshServersRepository,
    runs: createServerRunsRepository(db),
    jobs: {
      send: (runId) => serverRunJobs!.send({ runId }, { id: runId }),
      state: (runId) => serverRunJobs!.state(runId),
    },
    liveness,
    findActor: (userId) => users.findById(userId),
    redeploy: (actor, proxyId, language) => deployments.start(actor, proxyId, 'redeploy', language),
    deploymentEnd: (id, signal) => deploymentEnd(deploymentsRepository, id, signal),
    checkCertificate: (actor, proxyId) => certificates.requestCheck(actor, proxyId),
    deadlineMs: serverRunDeadlineMs,
  });
  serverRunJobs = await queue.onDemand<{ runId: string }>(SERVER_RUN_QUEUE, {
    // The backstop behind the run's own deadline.
    expireInSeconds: Math.ceil(serverRunDeadlineMs / 1000) + 10 * 60,
    concurrency: JOB_TIMING.concurrency,
    work:
      workerCount > 0 ? ({ runId }) => serverRuns.work(runId, serverRunsStop.signal) : undefined,
  });
  const serverActions = createServerActionsService({
    repository: sshServersRepository,
    servers: sshServers,
    refuseWhileRunning: serverRuns.refuseWhileRunning,
    removeProxy: (actor, proxyId, options) => proxies.remove(actor, proxyId, options),
  });
  const sweepServerRuns = () =>
    serverRuns.sweep().catch(warn('looking for interrupted server runs failed'));
  const serverRunSweeper = setInterval(sweepServerRuns, JOB_TIMING.reaperIntervalMs);
  serverRunSweeper.unref();
  const reaper = scheduleReaper(
    {
      deployments: deploymentsRepository,
      proxies: proxiesRepository,
      runLog,
      liveness,
      queue,
      log,
    },
    warn('looking for interrupted deployments failed'),
    soleWriter ? undefined : createScheduledRunsRepository(db).claim,
  );
  // PGlite has no autovacuum (db/pglite-upkeep.ts); PostgreSQL runs its own.
  const tableUpkeep = scheduleUpkeep(database, warn('PGlite upkeep failed'));
  if (options.destinationProbe && workerCount !== 0) {
    await registerDestinationProbe(queue, database, { onError: warn('destination probe failed') });
  }

  const backupRuns = createBackupRunsRepository(db);
  const backupSchedule = options.config.backups;
  if (backupSchedule) {
    const files = {
      secretKeyFile: options.secretKeyFile,
      sessionSecretFile: backupSchedule.sessionSecretFile,
    };
    await registerBackupJob(
      queue,
      { database, schedule: backupSchedule, files, runs: backupRuns, clock: options.clock },
      { work: workerCount !== 0, onError: warn('scheduled backup failed') },
    );
  }

  const liveLog = createLiveLogService({
    proxies,
    deployments: deploymentsRepository,
    sessions: sessionsRepository,
    // The account as stored now (no cache): an admin demoted elsewhere loses admin streams.
    users: createUsersRepository(db),
  });

  return {
    users,
    auth,
    audit,
    tokens,
    twoFactor,
    twoFactorPolicy,
    sessionsRepository,
    sessionEnds,
    accountSessions,
    account,
    dns,
    sshTest,
    destinations,
    admin,
    limits,
    scripts,
    proxies,
    conversion,
    sshServers,
    transfer,
    serverChecks,
    siteScans,
    serverActions,
    serverRuns,
    deployments,
    plans,
    notifications,
    certificates,
    dnsChallenges,
    wildcardUses,
    liveLog,
    bus,
    queue,
    health: createHealthService(database),
    backups: { status: () => backupStatus(backupSchedule, backupRuns) },
    /**
     * Where rate limits count: PostgreSQL, so attempts spread over instances add up; on PGlite
     * (one process) the limiter's own memory.
     */
    rateLimitStore: soleWriter
      ? undefined
      : databaseRateLimitStore(
          createRateLimitHitsRepository(db),
          warn('forgetting ended rate-limit windows failed'),
        ),
    /** Background work that waits for the app to be ready: interrupted runs are looked for. */
    ready: async () => {
      await reaper.runNow();
      await sweepServerRuns();
      // Servers made by migration 0014 get their proxies' passwords (the proxies keep theirs).
      const moved = await moveProxyPasswordsToServers(sshServersRepository, secrets).catch(
        (error) => {
          log.warn({ err: error }, 'saved servers: passwords not moved');
          return undefined;
        },
      );
      if (moved?.failed) {
        log.warn(moved, 'saved servers: some proxy passwords did not decrypt and were not moved');
      }
    },
    /**
     * Stops in order: the reaper, the running engines (they stop at their next step and leave
     * the run for the next start), the queue, then the connections the bus and liveness hold.
     */
    async close() {
      reaper.stop();
      clearInterval(serverRunSweeper);
      serverRunsStop.abort();
      tableUpkeep.stop();
      await prober?.close();
      await workers.stop();
      await queue.stop();
      await bus.close();
      await liveness.close();
    },
  };
}
