import type { TLanguage } from '@portico/shared/api-error';
import type { TCertificateFacts, TRenewalHealth } from '@portico/shared/certificates/schemas';
import { renderStored, renderText, type TText } from '@portico/shared/i18n/text';
import type { TLogLevel } from '@portico/shared/proxy/schemas';
import type {
  TCertificateStatusRow,
  TDeploymentLogRow,
  TProxyConfigurationRow,
} from '../../db/schema';
import type {
  TCertificateActionInput,
  TCertificateActionOutcome,
  TDeployInput,
  TDeployOutcome,
  TEngineContext,
  TEngineSettings,
  TRemoveInput,
  TRemoveOutcome,
} from '../../deploy/engine';
import type { TWorkerLiveness } from '../../jobs/worker-liveness';
import type { TLogBus } from '../../realtime/log-bus';
import type { TAuditService } from '../audit/audit.service';
import type { TProxiesRepository } from '../proxies/proxies.repository';
import type { TProxySecrets } from '../proxies/proxy-secrets';
import type { TDeploymentsRepository } from './deployments.repository';

/** A run's and a removal's time limits, and how long either may then take to stop. */
export interface TRunTiming {
  runDeadlineMs: number;
  abandonGraceMs: number;
  removeDeadlineMs?: number;
}

/** The engine as the job sees it; tests of the job may hand in their own server. */
export interface TEngine {
  runDeployment(input: TDeployInput, ctx: TEngineContext): Promise<TDeployOutcome>;
  removeSite(input: TRemoveInput, ctx: TEngineContext): Promise<TRemoveOutcome>;
  runCertificateAction(
    input: TCertificateActionInput,
    ctx: TEngineContext,
  ): Promise<TCertificateActionOutcome>;
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
}

export interface TDeploymentDeps {
  deployments: TDeploymentsRepository;
  proxies: TProxiesRepository;
  secrets: TProxySecrets;
  audit: TAuditService;
  bus: TLogBus;
  liveness: TWorkerLiveness;
  engine: TEngine;
  certificates: TCertificateHooks;
  settings: () => TEngineSettings;
  log: { info(msg: string): void; warn(obj: unknown, msg: string): void };
  /** A run's time limit and how long it may then take to stop; JOB_TIMING unless a test says. */
  timing?: TRunTiming;
}

/**
 * A stored line for a socket, its words in the run's language; each socket renders the text
 * again in its viewer's language (ws-gateway).
 */
export function progressMessage(row: TDeploymentLogRow) {
  return {
    type: 'deployment_progress' as const,
    data: {
      id: row.id,
      deploymentId: row.deploymentId,
      message: row.message,
      text: row.text ?? null,
      level: row.level,
      timestamp: row.timestamp.toISOString(),
    },
  };
}

/** A stored line for the API, in the reader's language (older rows: as they were stored). */
export function toLogEntry(row: TDeploymentLogRow, language: TLanguage) {
  return {
    id: row.id,
    configurationId: row.configurationId,
    deploymentId: row.deploymentId,
    level: row.level,
    message: renderStored(language, row),
    text: row.text ?? null,
    timestamp: row.timestamp.toISOString(),
  };
}

/** A line as the engine gives it: words in the run's language, and the text they came from. */
export type TLine = { message: string; text: TText };

/** The line of a text in the run's language. */
export function lineOf(language: TLanguage, text: TText): TLine {
  return { message: renderText(language, text), text };
}

/** Writes a line, then publishes it to sockets here and on other instances. */
export async function writeLine(
  deps: Pick<TDeploymentDeps, 'deployments' | 'bus'>,
  configurationId: string,
  deploymentId: string | null,
  level: TLogLevel,
  line: TLine,
) {
  // Verbatim output (a plain string) reads the same in every language: its words are its text.
  const text = typeof line.text === 'string' ? null : line.text;
  const row = await deps.deployments.addLog({
    configurationId,
    deploymentId,
    level,
    message: line.message,
    text,
  });
  deps.bus.publish(configurationId, progressMessage(row));
  return row;
}

export function publishStatus(
  deps: Pick<TDeploymentDeps, 'bus'>,
  row: Pick<TProxyConfigurationRow, 'id' | 'status'>,
  deploymentId: string | null,
) {
  deps.bus.publish(row.id, {
    type: 'deployment_status',
    data: { status: row.status, deploymentId },
  });
}
