import type { TCertificateFacts, TRenewalHealth } from '@portico/shared/certificates/schemas';
import type { TText } from '@portico/shared/i18n/text';
import type { TCertificateStatusRow, TProxyConfigurationRow } from '../../db/schema';
import type { TTransaction } from '../../db/transaction';
import type {
  TCertificateActionInput,
  TCertificateActionOutcome,
  TDeployInput,
  TDeployOutcome,
  TDnsChallenge,
  TEngineContext,
  TEngineSettings,
  TRemoveInput,
  TRemoveOutcome,
  TSharedWildcard,
  TUploadedCertificate,
} from '../../deploy/engine';
import type { TWorkerLiveness } from '../../jobs/worker-liveness';
import type { TProxiesRepository } from '../proxies/proxies.repository';
import type { TServerCredentials } from '../ssh-servers/server-credentials';
import type { TDeploymentsRepository } from './deployments.repository';
import type { TRunLog } from './run-log';

// What a run of the deploy queue is given: the deploy job and the certificate action's run
// (certificate-action-job.ts) both take it, so neither imports the other for it.

/** A run's and a removal's time limits, and how long either may then take to stop. */
export interface TRunTiming {
  runDeadlineMs: number;
  abandonGraceMs: number;
  removeDeadlineMs?: number;
}

/** The engine as Portico uses it; tests may hand in their own server. */
export interface TEngine {
  runDeployment(input: TDeployInput, ctx: TEngineContext): Promise<TDeployOutcome>;
  removeSite(input: TRemoveInput, ctx: TEngineContext): Promise<TRemoveOutcome>;
  runCertificateAction(
    input: TCertificateActionInput,
    ctx: TEngineContext,
  ): Promise<TCertificateActionOutcome>;
}

/** What a run's end writes: the run and its configuration, together or not at all. */
export interface TRunWrites {
  deployments: TDeploymentsRepository;
  proxies: TProxiesRepository;
}

/** What one run of the deploy queue needs (a deployment, or a certificate action). */
export interface TDeployJobDeps {
  deployments: TDeploymentsRepository;
  proxies: TProxiesRepository;
  transaction: TTransaction<TRunWrites>;
  runLog: TRunLog;
  liveness: TWorkerLiveness;
  secrets: TServerCredentials;
  runDeployment: TEngine['runDeployment'];
  runCertificateAction: TEngine['runCertificateAction'];
  /** What runs tell the certificate watch, and what they ask of it. */
  certificates: TCertificateHooks;
  settings: () => TEngineSettings;
  log: { warn(obj: unknown, msg: string): void };
  /** A run's time limit and how long it may then take to stop; JOB_TIMING unless a test says. */
  timing?: TRunTiming;
  /**
   * Reads a saved server's facts again (modules/ssh-servers/server-check.service.ts) after a
   * deployment on it succeeded; absent where runs reach no real server (a test's engine).
   */
  refreshServerFacts?: (serverId: string, signal: AbortSignal) => Promise<void>;
}

/** What runs tell the certificate watch (modules/certificates), and what they ask of it. */
export interface TCertificateHooks {
  /** certbot's certificate as a run read it on the server. */
  recordOnServer(configurationId: string, facts: TCertificateFacts): Promise<void>;
  /** How the server renews, as a deployment found or set it up. */
  recordRenewal(configurationId: string, renewal: TRenewalHealth): Promise<void>;
  /** One live check now, recorded and alerted like the watch's own. */
  checkNow(configurationId: string): Promise<TCertificateStatusRow | undefined>;
  /** A live check soon (after a deployment), through the on-demand queue. */
  queueCheck(configurationId: string): Promise<void>;
  /** "Renew now" failed on the server: the owner is told. */
  renewalFailed(config: TProxyConfigurationRow, reason: TText): Promise<void>;
  /** Whether the proxy has an uploaded certificate (its actions are refused). */
  servesUpload(configurationId: string): Promise<boolean>;
  /** The proxy's uploaded certificate with its key unsealed, for a deployment to serve. */
  uploadedCertificate(configurationId: string): Promise<TUploadedCertificate | null>;
  /**
   * The proxy's DNS-01 challenge with its credentials unsealed for a run on `serverIp`; null
   * without one; rejects when they were entered for another server or do not decrypt.
   */
  dnsChallenge(configurationId: string, serverIp: string): Promise<TDnsChallenge | null>;
  /**
   * The wildcard whose certificate (another proxy's, on the same server) serves the proxy; null
   * when it uses none; rejects when that proxy is no longer on `serverIp`.
   */
  sharedWildcard(configurationId: string, serverIp: string): Promise<TSharedWildcard | null>;
}
