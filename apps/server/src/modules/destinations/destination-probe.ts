import { Socket } from 'node:net';
import type PgBoss from 'pg-boss';
import type { TDatabase } from '../../db/client';
import { createDestinationsRepository, type TProbeResult } from './destinations.repository';

/** Long enough for a distant upstream, short enough that a minute holds many destinations. */
export const PROBE_TIMEOUT_MS = 5000;
const PROBE_CONCURRENCY = 8;
export const DESTINATION_PROBE_JOB = 'destination-probe';

export interface TProbeTarget {
  host: string;
  port: number;
}

/**
 * Where to connect for an endpoint of the manual-destination forms (spec §5): an IPv4 address
 * (port 80), an http/https URL (its port, or 80/443 by scheme), or host[:port] (port 80).
 */
export function probeTargetOf(endpoint: string): TProbeTarget | undefined {
  const value = endpoint.trim();
  if (/^https?:\/\//i.test(value)) {
    try {
      const url = new URL(value);
      const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
      return { host: url.hostname, port };
    } catch {
      return undefined;
    }
  }
  const match = /^([A-Za-z0-9.-]+)(?::(\d{1,5}))?$/.exec(value);
  if (!match) return undefined;
  const port = match[2] ? Number(match[2]) : 80;
  if (port < 1 || port > 65535) return undefined;
  return { host: match[1]!, port };
}

/** One TCP connect; the latency is the time to the established connection. */
export function tcpProbe(
  target: TProbeTarget,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<Omit<TProbeResult, 'checkedAt'>> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const started = performance.now();
    const done = (result: Omit<TProbeResult, 'checkedAt'>) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(timeoutMs, () => done({ status: 'offline', latencyMs: null }));
    socket.once('error', () => done({ status: 'offline', latencyMs: null }));
    socket.once('connect', () =>
      done({ status: 'online', latencyMs: Math.max(0, Math.round(performance.now() - started)) }),
    );
    socket.connect(target.port, target.host);
  });
}

export interface TProbeSummary {
  probed: number;
  online: number;
  offline: number;
}

/**
 * Connects to every active destination and records online/offline, latency and the time.
 * Inactive ones are left alone (they are not offered anyway).
 */
export async function probeDestinations(
  database: TDatabase,
  options: { timeoutMs?: number } = {},
): Promise<TProbeSummary> {
  const repository = createDestinationsRepository(database.db);
  const rows = await repository.listActive();
  const summary: TProbeSummary = { probed: 0, online: 0, offline: 0 };
  const queue = [...rows];
  const worker = async () => {
    for (let row = queue.shift(); row; row = queue.shift()) {
      const target = probeTargetOf(row.endpoint);
      const result = target
        ? await tcpProbe(target, options.timeoutMs)
        : { status: 'offline' as const, latencyMs: null };
      await repository.recordProbe(row.id, row.endpoint, { ...result, checkedAt: new Date() });
      summary.probed += 1;
      summary[result.status] += 1;
    }
  };
  await Promise.all(Array.from({ length: Math.min(PROBE_CONCURRENCY, rows.length) }, worker));
  return summary;
}

/**
 * Schedules the probe every minute on pg-boss 10 and works it. Call once per process after
 * boss.start() (the boss must run with `schedule: true`, its default, or the cron never fires).
 * Several app instances may all call it: the schedule is one row shared by all, and the queue's
 * `stately` policy keeps at most one probe queued and one running, so a slow probe never lets
 * minutes pile up.
 */
export async function registerDestinationProbe(
  boss: PgBoss,
  database: TDatabase,
  options: { timeoutMs?: number; onError?: (error: unknown) => void } = {},
): Promise<void> {
  await boss.createQueue(DESTINATION_PROBE_JOB, {
    name: DESTINATION_PROBE_JOB,
    policy: 'stately',
    // A probe older than a minute is stale: the next one is already due.
    expireInSeconds: 55,
    retryLimit: 0,
  });
  await boss.schedule(DESTINATION_PROBE_JOB, '* * * * *');
  await boss.work(DESTINATION_PROBE_JOB, async () => {
    try {
      await probeDestinations(database, options);
    } catch (error) {
      options.onError?.(error);
      throw error;
    }
  });
}
