import { addressClass } from '@portico/shared/validation/address-class';
import type { TDatabase } from '../../db/client';
import type { TDestinationServerRow } from '../../db/schema';
import type { TQueue } from '../../jobs/queue';
import { batchedPass } from '../../lib/batched-pass';
import { systemLookup } from '../../net/dns';
import { isIP, type LookupFunction, Socket } from '../../net/tcp';
import {
  createDestinationsRepository,
  type TDestinationsRepository,
  type TProbeResult,
} from './destinations.repository';

/** Long enough for a distant upstream, short enough that a minute holds many destinations. */
const PROBE_TIMEOUT_MS = 5000;
const PROBE_CONCURRENCY = 8;
/** Destinations read at a time: memory stays flat however many there are. */
const PROBE_BATCH = 200;
export const DESTINATION_PROBE_JOB = 'destination-probe';

export interface TProbeTarget {
  host: string;
  port: number;
}

/**
 * Where to connect for an endpoint of the manual-destination forms (docs/PRODUCT.md#destination-servers): an IPv4 address
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

/**
 * The probe connects from inside the operator's network, so it never connects where no
 * destination can be (docs/SECURITY.md): "this network" (0.0.0.0 reaches this machine),
 * link-local (the cloud metadata endpoint), multicast and reserved addresses, in any spelling
 * (the one classifier judges an IPv6 address by the IPv4 one it carries). Loopback and private
 * addresses are probed: a destination on the LAN, or on this machine, is an admin's choice.
 */
const probeMayReach = (address: string) => addressClass(address) !== 'forbidden';

/** The system's lookup, every answer judged: one refused address refuses the name. */
const judgedLookup = ((hostname, options, callback) => {
  systemLookup(hostname, { ...options, all: true }, (error, answers) => {
    if (error) return callback(error, '', 0);
    const refused = answers.find((a) => !probeMayReach(a.address));
    if (refused || answers.length === 0) {
      return callback(Object.assign(new Error(`${hostname} refused`), { code: 'EREFUSED' }), '', 0);
    }
    if (options.all) return (callback as (e: null, a: typeof answers) => void)(null, answers);
    return callback(null, answers[0]!.address, answers[0]!.family);
  });
}) as LookupFunction;

/**
 * One TCP connect; the latency is the time to the established connection. Ends on connect,
 * error, the timeout, or `signal` (then offline: nothing was measured). An address the probe may
 * not reach is offline without a connection.
 */
export function tcpProbe(
  target: TProbeTarget,
  timeoutMs = PROBE_TIMEOUT_MS,
  signal?: AbortSignal,
): Promise<Omit<TProbeResult, 'checkedAt'>> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const started = performance.now();
    const onAbort = () => done({ status: 'offline', latencyMs: null });
    const done = (result: Omit<TProbeResult, 'checkedAt'>) => {
      signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      resolve(result);
    };
    if (signal?.aborted || (isIP(target.host) && !probeMayReach(target.host))) {
      return done({ status: 'offline', latencyMs: null });
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    socket.setTimeout(timeoutMs, () => done({ status: 'offline', latencyMs: null }));
    socket.once('error', () => done({ status: 'offline', latencyMs: null }));
    socket.once('connect', () =>
      done({ status: 'online', latencyMs: Math.max(0, Math.round(performance.now() - started)) }),
    );
    socket.connect({ port: target.port, host: target.host, lookup: judgedLookup });
  });
}

/**
 * Probes one destination and records the result (an endpoint no probe can read is offline).
 * A probe stopped by `signal` records nothing. Answers the status recorded, if any.
 */
async function probeAndRecord(
  repository: TDestinationsRepository,
  row: Pick<TDestinationServerRow, 'id' | 'endpoint'>,
  timeoutMs: number | undefined,
  signal?: AbortSignal,
): Promise<TProbeResult['status'] | undefined> {
  const target = probeTargetOf(row.endpoint);
  const result = target
    ? await tcpProbe(target, timeoutMs, signal)
    : { status: 'offline' as const, latencyMs: null };
  if (signal?.aborted) return undefined;
  await repository.recordProbe(row.id, row.endpoint, { ...result, checkedAt: new Date() });
  return result.status;
}

export type TImmediateProber = ReturnType<typeof createImmediateProber>;

/**
 * Probes a destination right after an admin created or edited it, so its status is known within
 * the probe's timeout instead of at the next minute's probe. The save does not wait for it (a
 * slow or silent address must not hold the admin's request); the admin screen reads the list
 * again until the status is in. `close` stops the probes in flight (their sockets close at once,
 * nothing is recorded) and waits for them, so none outlives the app.
 */
export function createImmediateProber(
  repository: TDestinationsRepository,
  options: { timeoutMs?: number; onError?: (error: unknown) => void } = {},
) {
  const stop = new AbortController();
  const running = new Set<Promise<unknown>>();
  return {
    probe(row: Pick<TDestinationServerRow, 'id' | 'endpoint' | 'isActive'>): void {
      // Inactive destinations are not offered, and the minute's probe leaves them alone too.
      if (!row.isActive || stop.signal.aborted) return;
      const work = probeAndRecord(repository, row, options.timeoutMs, stop.signal)
        .catch((error: unknown) => options.onError?.(error))
        .finally(() => running.delete(work));
      running.add(work);
    },
    async close(): Promise<void> {
      stop.abort();
      await Promise.allSettled([...running]);
    },
  };
}

export interface TProbeSummary {
  probed: number;
  online: number;
  offline: number;
}

/**
 * Connects to every active destination and records online/offline, latency and the time.
 * Inactive ones are left alone (they are not offered anyway). The active ones are read a batch
 * at a time, only what a probe needs (id and endpoint), through their partial index.
 */
export async function probeDestinations(
  database: TDatabase,
  options: { timeoutMs?: number; batch?: number } = {},
): Promise<TProbeSummary> {
  const repository = createDestinationsRepository(database.db);
  const summary: TProbeSummary = { probed: 0, online: 0, offline: 0 };
  const batch = options.batch ?? PROBE_BATCH;
  await batchedPass(
    {
      read: (after) => repository.activeBatch(after, batch),
      idOf: (row) => row.id,
      concurrency: PROBE_CONCURRENCY,
    },
    async (row) => {
      const status = await probeAndRecord(repository, row, options.timeoutMs);
      summary.probed += 1;
      if (status) summary[status] += 1;
    },
  );
  return summary;
}

/**
 * Schedules the probe every minute and works it (TQueue.everyMinute: several instances may all
 * call it, and a slow probe never lets minutes pile up). The queue's cron must be on, or the
 * schedule never fires.
 */
export async function registerDestinationProbe(
  queue: TQueue,
  database: TDatabase,
  options: { timeoutMs?: number; onError?: (error: unknown) => void } = {},
): Promise<void> {
  await queue.everyMinute(DESTINATION_PROBE_JOB, async () => {
    try {
      await probeDestinations(database, options);
    } catch (error) {
      options.onError?.(error);
      throw error;
    }
  });
}
