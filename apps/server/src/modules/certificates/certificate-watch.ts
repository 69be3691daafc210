import { isWorse } from '@portico/shared/certificates/state';
import type { TAlertedState, TCertificateStatusRow } from '../../db/schema';
import { batchedPass } from '../../lib/batched-pass';
import { trustedRoots } from '../../net/tls-probe';
import type { TAlertEvent } from '../notifications/alert-message';
import type { TAlerts } from '../notifications/alerts';
import { checkCertificate } from './certificate-check';
import { alertedStateOf } from './certificate-view';
import type { TCertificatesRepository, TWatched } from './certificates.repository';

/** Sites looked at at once during a sweep: each mostly waits on the network. */
const SWEEP_CONCURRENCY = 4;
/** Rows read at a time: memory stays flat however many certificates there are. */
const SWEEP_BATCH = 200;
/** Each check starts after a random pause up to this: a server's sites are not all hit at once. */
const SWEEP_JITTER_MS = 100;

export interface TWatchDeps {
  certificates: TCertificatesRepository;
  alerts: Pick<TAlerts, 'send'>;
  /** PORTICO_EXTRA_CA_FILE: trusted beside the system roots. */
  extraCaFile?: string;
  now: () => Date;
  log: { warn(obj: unknown, msg: string): void; info(msg: string): void };
}

/**
 * What changed for the worse between what was alerted and what is now: one event per change,
 * none while a state holds (however many checks see it), none when it gets better.
 */
export function alertEvents(
  previous: TAlertedState,
  current: TAlertedState,
  row: Pick<TCertificateStatusRow, 'served' | 'lastCheck' | 'onServer'>,
): TAlertEvent[] {
  const events: TAlertEvent[] = [];
  if (current.checkFailed && !previous.checkFailed && row.lastCheck?.problem) {
    events.push({ kind: 'checkFailed', reason: row.lastCheck.problem });
  }
  if (isWorse(current.expiry, previous.expiry) && current.expiry !== 'fine' && row.served) {
    events.push({ kind: current.expiry, notAfter: row.served.notAfter });
  }
  if (current.notReloaded && !previous.notReloaded && row.served && row.onServer) {
    events.push({
      kind: 'notReloaded',
      servedNotAfter: row.served.notAfter,
      renewedNotBefore: row.onServer.notBefore,
    });
  }
  return events;
}

/**
 * Compares the row with what was alerted and sends what changed for the worse. The alerted
 * state moves first, with a compare-and-set: of two instances judging the same change, only one
 * sends it.
 */
export async function raiseAlerts(
  deps: TWatchDeps,
  proxy: TWatched['proxy'],
  row: TCertificateStatusRow,
): Promise<TAlertEvent[]> {
  const current = alertedStateOf(row, deps.now());
  const previous = row.alerted;
  if (JSON.stringify(current) === JSON.stringify(previous)) return [];
  if (!(await deps.certificates.claimAlerted(proxy.id, previous, current))) return [];
  const events = alertEvents(previous, current, row);
  for (const event of events) await deps.alerts.send(proxy, event);
  return events;
}

/** Where the site is served from: the server the last deployment went to. */
export function addressOf(proxy: TWatched['proxy']): { address: string; domain: string } {
  const deployed = proxy.deployedSnapshot;
  return {
    address: deployed?.serverIp ?? proxy.serverIp,
    domain: deployed?.domain ?? proxy.domain,
  };
}

/** Checks one site and records what it saw, then alerts on what changed. */
export async function watchOne(
  deps: TWatchDeps,
  watched: TWatched,
  ca?: string[],
): Promise<TCertificateStatusRow> {
  const startedAt = deps.now();
  const outcome = await checkCertificate(addressOf(watched.proxy), {
    ca: ca ?? (await trustedRoots(deps.extraCaFile)),
    now: deps.now,
  });
  const row = await deps.certificates.recordCheck(watched.proxy.id, { ...outcome, startedAt });
  await raiseAlerts(deps, watched.proxy, row);
  return row;
}

export interface TSweepOptions {
  concurrency?: number;
  batch?: number;
  jitterMs?: number;
  /** The check of one site (tests count and time them). */
  check?: (watched: TWatched, ca: string[]) => Promise<unknown>;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The recurring job: every site serving HTTPS, read a batch at a time in id order, a few checked
 * at once, each after a random pause. One failure stops nothing; the pass logs its duration.
 */
export async function sweep(
  deps: TWatchDeps,
  options: TSweepOptions = {},
): Promise<{ checked: number; failed: number; ms: number }> {
  const started = performance.now();
  const concurrency = options.concurrency ?? SWEEP_CONCURRENCY;
  const jitterMs = options.jitterMs ?? SWEEP_JITTER_MS;
  const ca = await trustedRoots(deps.extraCaFile);
  const check = options.check ?? ((watched, roots) => watchOne(deps, watched, roots));
  let checked = 0;
  let failed = 0;
  const batch = options.batch ?? SWEEP_BATCH;
  await batchedPass(
    {
      read: (after) => deps.certificates.watchedBatch(after, batch),
      idOf: (watched) => watched.proxy.id,
      concurrency,
    },
    async (watched) => {
      if (jitterMs > 0) await pause(Math.random() * jitterMs);
      try {
        await check(watched, ca);
        checked += 1;
      } catch (error) {
        failed += 1;
        deps.log.warn(
          { err: error, configurationId: watched.proxy.id },
          'certificate check failed',
        );
      }
    },
  );
  const ms = Math.round(performance.now() - started);
  deps.log.info(`certificate sweep: ${checked} checked, ${failed} failed, in ${ms} ms`);
  return { checked, failed, ms };
}
