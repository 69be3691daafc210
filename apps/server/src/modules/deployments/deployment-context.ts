import type { TLogLevel } from '@portico/shared/proxy/schemas';
import type { TDeploymentLogRow, TProxyConfigurationRow } from '../../db/schema';
import type {
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

/** The engine as the job sees it; tests of the job may hand in their own server. */
export interface TEngine {
  runDeployment(input: TDeployInput, ctx: TEngineContext): Promise<TDeployOutcome>;
  removeSite(input: TRemoveInput, ctx: TEngineContext): Promise<TRemoveOutcome>;
}

export interface TDeploymentDeps {
  deployments: TDeploymentsRepository;
  proxies: TProxiesRepository;
  secrets: TProxySecrets;
  audit: TAuditService;
  bus: TLogBus;
  liveness: TWorkerLiveness;
  engine: TEngine;
  settings: () => TEngineSettings;
  log: { info(msg: string): void; warn(obj: unknown, msg: string): void };
}

export function progressMessage(row: TDeploymentLogRow) {
  return {
    type: 'deployment_progress' as const,
    data: {
      id: row.id,
      deploymentId: row.deploymentId,
      message: row.message,
      level: row.level,
      timestamp: row.timestamp.toISOString(),
    },
  };
}

export function toLogEntry(row: TDeploymentLogRow) {
  return {
    id: row.id,
    configurationId: row.configurationId,
    deploymentId: row.deploymentId,
    level: row.level,
    message: row.message,
    timestamp: row.timestamp.toISOString(),
  };
}

/** Writes a line, then publishes it to sockets here and on other instances. */
export async function writeLine(
  deps: Pick<TDeploymentDeps, 'deployments' | 'bus'>,
  configurationId: string,
  deploymentId: string | null,
  level: TLogLevel,
  message: string,
) {
  const row = await deps.deployments.addLog({ configurationId, deploymentId, level, message });
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
