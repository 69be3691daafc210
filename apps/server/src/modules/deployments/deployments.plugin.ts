import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { TDatabase } from '../../db/client';
import { LETS_ENCRYPT_DIRECTORY } from '../../deploy/acme';
import {
  removeSite,
  runCertificateAction,
  runDeployment,
  type TEngineSettings,
} from '../../deploy/engine';
import { DEPLOY_QUEUE, JOB_TIMING, type TDeployJobData } from '../../jobs/queues';
import { createWorkerLiveness } from '../../jobs/worker-liveness';
import { jobs } from '../../plugins/jobs';
import { createLogBus } from '../../realtime/log-bus';
import type { TSessionEnds } from '../../realtime/session-ends';
import { wsGateway } from '../../realtime/ws-gateway';
import { createAuditRepository } from '../audit/audit.repository';
import { createAuditService } from '../audit/audit.service';
import { registerCertificateJobs } from '../certificates/certificate-jobs';
import { type TWatchDeps, watchOne } from '../certificates/certificate-watch';
import { createCertificatesRepository } from '../certificates/certificates.repository';
import { certificatesRoutes } from '../certificates/certificates.routes';
import { createCertificatesService } from '../certificates/certificates.service';
import type { TAlerts } from '../notifications/alerts';
import { createProxiesRepository } from '../proxies/proxies.repository';
import { proxiesRoutes } from '../proxies/proxies.routes';
import { createProxiesService } from '../proxies/proxies.service';
import { createProxySecrets } from '../proxies/proxy-secrets';
import { createSessionsRepository } from '../sessions/sessions.repository';
import { createUsersRepository } from '../users/users.repository';
import { runDeployJob } from './deploy-job';
import {
  progressMessage,
  publishStatus,
  type TDeploymentDeps,
  type TEngine,
} from './deployment-context';
import { reapDeployments } from './deployment-reaper';
import { createDeploymentsRepository } from './deployments.repository';
import { deploymentsRoutes } from './deployments.routes';
import { createDeploymentsService } from './deployments.service';

export interface TDeployOptions {
  settings?: TEngineSettings;
  engine?: TEngine;
  /** Deploy runs this instance works at once; 0 makes an instance that only serves the API. */
  workers?: number;
  /** How often log sockets check that their session still exists (tests shorten it). */
  socketSessionRecheckMs?: number;
  /** A run's time limit and its grace to stop (JOB_TIMING; tests shorten them). */
  timing?: TDeploymentDeps['timing'];
}

/**
 * Proxies, deployments, the deploy queue and the live log socket, wired together: they share the
 * repositories, the secret box and the log bus.
 */
async function proxiesAndDeploymentsPlugin(
  app: FastifyInstance,
  options: TDeployOptions & {
    database: TDatabase;
    secretKeyFile: string;
    sessionEnds?: TSessionEnds;
    /** Certificate alerts (modules/notifications). */
    alerts: Pick<TAlerts, 'send'>;
    /** The time the certificate watch judges by; tests move it. */
    now: () => Date;
    allowLoopback: boolean;
  },
) {
  const { db } = options.database;
  const settings = () => ({
    ...(options.settings ?? { acmeDirectoryUrl: LETS_ENCRYPT_DIRECTORY }),
    allowLoopback: options.allowLoopback,
  });
  const engine = options.engine ?? { runDeployment, removeSite, runCertificateAction };

  await app.register(jobs, { database: options.database });
  const proxiesRepository = createProxiesRepository(db);
  const deploymentsRepository = createDeploymentsRepository(db);
  const audit = createAuditService(createAuditRepository(db));
  const secrets = createProxySecrets(options.secretKeyFile);
  const bus = await createLogBus({
    database: options.database,
    loadLog: async (id) => {
      const row = await deploymentsRepository.findLog(id);
      return row ? progressMessage(row) : undefined;
    },
    onError: (error) => app.log.warn({ err: error }, 'log fan-out error'),
  });
  const liveness = await createWorkerLiveness(options.database);
  const workers = options.workers ?? JOB_TIMING.concurrency;

  const certificatesRepository = createCertificatesRepository(db);
  const watch: TWatchDeps = {
    certificates: certificatesRepository,
    alerts: options.alerts,
    extraCaFile: settings().extraCaFile,
    now: options.now,
    log: app.log,
  };
  const certificateJobs = await registerCertificateJobs(app.boss, watch, { work: workers > 0 });

  const deps: TDeploymentDeps = {
    deployments: deploymentsRepository,
    proxies: proxiesRepository,
    secrets,
    audit,
    bus,
    liveness,
    engine,
    settings,
    log: app.log,
    certificates: {
      recordOnServer: (id, facts) =>
        certificatesRepository.recordOnServer(id, facts, options.now()),
      recordRenewal: (id, renewal) => certificatesRepository.recordRenewal(id, renewal),
      async checkNow(id) {
        const [watched] = await certificatesRepository.watched(id);
        return watched ? watchOne(watch, watched) : undefined;
      },
      queueCheck: certificateJobs.queueCheck,
      async renewalFailed(config, reason) {
        await options.alerts.send(config, { kind: 'renewalFailed', reason });
      },
    },
    timing: options.timing,
  };
  const proxies = createProxiesService({
    repository: proxiesRepository,
    secrets,
    audit,
    settings,
    removeSite: engine.removeSite,
    timing: options.timing,
    onStatus: (row) => publishStatus(deps, row, null),
  });

  const abort = new AbortController();
  const running = new Set<Promise<void>>();
  const workerIds: string[] = [];
  for (let i = 0; i < workers; i += 1) {
    workerIds.push(
      await app.boss.work<TDeployJobData>(
        DEPLOY_QUEUE,
        { batchSize: 1, pollingIntervalSeconds: JOB_TIMING.pollingIntervalSeconds },
        async ([job]) => {
          if (!job) return;
          const run = runDeployJob(deps, job.id, job.data, abort.signal);
          running.add(run);
          try {
            await run;
          } finally {
            running.delete(run);
          }
        },
      ),
    );
  }
  const deployments = createDeploymentsService({
    ...deps,
    boss: app.boss,
    proxiesService: proxies,
    wake: () => {
      for (const id of workerIds) app.boss.notifyWorker(id);
    },
  });

  const reap = () =>
    reapDeployments({ ...deps, boss: app.boss }).catch((error) =>
      app.log.warn({ err: error }, 'looking for interrupted deployments failed'),
    );
  const reaper = setInterval(reap, JOB_TIMING.reaperIntervalMs);
  reaper.unref();
  app.addHook('onReady', async () => {
    await reap();
  });

  await app.register(proxiesRoutes, { proxies });
  await app.register(deploymentsRoutes, { deployments });
  const certificates = createCertificatesService({
    repository: certificatesRepository,
    proxies,
    queueCheck: certificateJobs.queueCheck,
    now: options.now,
  });
  await app.register(certificatesRoutes, { certificates, deployments });
  await wsGateway(app, {
    bus,
    proxies,
    deployments: deploymentsRepository,
    sessions: createSessionsRepository(db),
    findUser: createUsersRepository(db).findById,
    sessionRecheckMs: options.socketSessionRecheckMs,
    sessionEnds: options.sessionEnds,
  });

  // Registered last, so it runs before the jobs plugin stops the queue (onClose runs in reverse).
  app.addHook('onClose', async () => {
    clearInterval(reaper);
    // Running engines stop at their next step and leave the run for the next start; a run
    // whose engine does not stop is let go within JOB_TIMING.abandonGraceMs (deploy-job.ts).
    abort.abort();
    await Promise.allSettled([...running]);
    await app.boss.stop({ graceful: true, timeout: 10_000, wait: true });
    await bus.close();
    await liveness.close();
  });
}

export const proxiesAndDeployments = fp(proxiesAndDeploymentsPlugin, {
  name: 'portico-proxies-deployments',
  dependencies: ['portico-auth-guard', 'portico-session'],
});
