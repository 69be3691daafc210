import type { TServerFacts } from '@portico/shared/ssh-servers/facts';
import type { TConfig } from './config';
import type { TDb } from './db/client';
import { transactionOver } from './db/transaction';
import type { TQueue } from './jobs/queue';
import type { TSecretBoxLoader } from './lib/secrets';
import { createAuditRepository } from './modules/audit/audit.repository';
import { createAuditService } from './modules/audit/audit.service';
import { registerCertificateJobs } from './modules/certificates/certificate-jobs';
import { type TWatchDeps, watchOne } from './modules/certificates/certificate-watch';
import { createCertificatesRepository } from './modules/certificates/certificates.repository';
import { createCertificatesService } from './modules/certificates/certificates.service';
import { customCertificateKeyAad } from './modules/certificates/custom-certificate-secret';
import { createCustomCertificatesRepository } from './modules/certificates/custom-certificates.repository';
import { createDnsChallengeService } from './modules/certificates/dns-challenge.service';
import { createDnsChallengesRepository } from './modules/certificates/dns-challenges.repository';
import { createWildcardUseService } from './modules/certificates/wildcard-use.service';
import { createCertificateActionHistory } from './modules/deployments/certificate-action-history.repository';
import type { TCertificateHooks } from './modules/deployments/deploy-job-deps';
import type { TLimitGuard } from './modules/limits/limits.service';
import { createAlerts } from './modules/notifications/alerts';
import { createMailer, type TMailer } from './modules/notifications/mailer';
import { createNotificationsRepository } from './modules/notifications/notifications.repository';
import { createNotificationsService } from './modules/notifications/notifications.service';
import type { TProxiesService } from './modules/proxies/proxies.service';
import { createProxyCertificateReads } from './modules/proxies/proxy-certificates.repository';
import { createWildcardUsesRepository } from './modules/proxies/wildcard-uses.repository';
import type { TUsersService } from './modules/users/users.service';

/**
 * The certificates' part of the composition root (services.ts): the notifications service with
 * its mailer, the alerts, the live watch with its jobs on the queue (every 6 h and on demand,
 * worked only where deploy workers run), the certificates service, and the hooks the deploy job
 * reaches the watch through.
 */
export async function buildCertificateServices(deps: {
  db: TDb;
  queue: TQueue;
  users: TUsersService;
  proxies: TProxiesService;
  /** A saved server's last facts (which DNS plugins its package manager offers). */
  serverFacts: (sshServerId: string) => Promise<TServerFacts | null>;
  /** The key file's box (lib/secrets.ts), opened at the first upload or alert that needs it. */
  secretBox: TSecretBoxLoader;
  config: Partial<Pick<TConfig, 'smtpUrl' | 'mailFrom' | 'webhookAllowPrivate'>>;
  /** The per-account limits' check, within a transaction (modules/limits). */
  limitGuard: (tx: TDb) => TLimitGuard;
  /** Sends the alert e-mails instead of PORTICO_SMTP_URL (tests). */
  mailer?: TMailer;
  webhookDeadlineMs?: number;
  /** The time certificate states are judged by; tests move it. */
  now: () => Date;
  /** PORTICO_EXTRA_CA_FILE: trusted beside the system roots by the watch's checks. */
  extraCaFile?: string;
  work: boolean;
  log: { warn(obj: unknown, msg: string): void; info(msg: string): void };
}) {
  const { db, now, log } = deps;
  const { smtpUrl, mailFrom } = deps.config;
  const notifications = createNotificationsService({
    repository: createNotificationsRepository(db),
    transaction: transactionOver(db, (tx) => ({
      repository: createNotificationsRepository(tx),
      audit: createAuditService(createAuditRepository(tx)),
      limits: deps.limitGuard(tx),
    })),
    users: deps.users,
    secretBox: deps.secretBox,
    webhookAllowPrivate: deps.config.webhookAllowPrivate ?? false,
    mailer:
      deps.mailer ?? (smtpUrl && mailFrom ? createMailer({ smtpUrl, from: mailFrom }) : undefined),
    webhookDeadlineMs: deps.webhookDeadlineMs,
    log,
  });
  const alerts = createAlerts({
    notifications,
    findUser: (id) => deps.users.findById(id),
    listAdmins: () => deps.users.listAdmins(),
    now,
  });
  const repository = createCertificatesRepository(db, {
    proxies: createProxyCertificateReads,
    history: (over) => createCertificateActionHistory(over, createProxyCertificateReads),
  });
  const watch: TWatchDeps = {
    certificates: repository,
    alerts,
    extraCaFile: deps.extraCaFile,
    now,
    log,
  };
  const jobs = await registerCertificateJobs(deps.queue, watch, { work: deps.work });
  const custom = createCustomCertificatesRepository(db);
  const encrypt = (plaintext: string, aad: string) => deps.secretBox().encrypt(plaintext, aad);
  const certificates = createCertificatesService({
    repository,
    proxies: deps.proxies,
    history: createCertificateActionHistory(db, createProxyCertificateReads),
    queueCheck: jobs.queueCheck,
    custom,
    encrypt,
    now,
  });
  const dnsChallenges = createDnsChallengeService({
    repository: createDnsChallengesRepository(db),
    proxies: deps.proxies,
    serverFacts: deps.serverFacts,
    encrypt,
    decrypt: (stored, aad) => deps.secretBox().decrypt(stored, aad),
    now,
  });
  const wildcardUses = createWildcardUseService({
    repository: createWildcardUsesRepository(db),
    proxies: deps.proxies,
    custom,
    now,
  });
  const hooks: TCertificateHooks = {
    recordOnServer: (id, facts) => repository.recordOnServer(id, facts, now()),
    recordRenewal: (id, renewal) => repository.recordRenewal(id, renewal),
    async checkNow(id) {
      const [watched] = await repository.watched(id);
      return watched ? watchOne(watch, watched) : undefined;
    },
    queueCheck: jobs.queueCheck,
    renewalFailed: (config, reason) => alerts.send(config, { kind: 'renewalFailed', reason }),
    servesUpload: async (id) => (await custom.find(id)) !== undefined,
    async uploadedCertificate(id) {
      const row = await custom.find(id);
      if (!row) return null;
      const privateKeyPem = deps
        .secretBox()
        .decrypt(row.privateKeyEnc, customCertificateKeyAad(id));
      return { chainPem: row.chainPem, privateKeyPem };
    },
    dnsChallenge: dnsChallenges.forRun,
    sharedWildcard: wildcardUses.forRun,
  };
  return { notifications, certificates, dnsChallenges, wildcardUses, hooks };
}
