import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import PgBoss from 'pg-boss';
import type { TDatabase } from '../db/client';
import { DEPLOY_QUEUE, JOB_TIMING, type TDeployJobData } from './queues';
import { createScheduledRunsRepository, type TScheduledRuns } from './scheduled-runs.repository';
import { openWakeLine, type TWakeLine } from './wake-line';
import { createWakeups } from './wakeups';

/**
 * The one module that talks to pg-boss: the deploy queue, the minute's cron jobs, the one-off
 * jobs. Services take a TQueue and never import pg-boss themselves; the connections that LISTEN
 * or hold advisory locks are `dedicatedClient`s (db/client.ts) of the modules beside this one.
 */

/** A deploy run's job data; `attempt` counts starts after an interruption. */
export type TDeployJob = TDeployJobData & { attempt: number };
/** The state pg-boss keeps for a deploy job, archived ones included. */
export type TDeployJobInfo = { state: string; data: TDeployJobData & { attempt?: number } };

/** An on-demand queue: `send` queues a job (with its id chosen by the caller if given). */
export interface TOnDemandQueue<TData> {
  send(data: TData, options?: { id?: string }): Promise<void>;
  /** What pg-boss says of a job (`created`, `active`, `completed`, ...); null when it has none. */
  state(id: string): Promise<string | null>;
}

export interface TQueue {
  /** pg-boss itself, for tests that play a worker; product code uses the methods below. */
  readonly boss: PgBoss;
  /** A deploy job with its id chosen now; `send` queues it (the id is recorded first). */
  deployJob(data: TDeployJob): { id: string; send(): Promise<unknown> };
  deployJobInfo(jobId: string): Promise<TDeployJobInfo | null>;
  failDeployJob(jobId: string, reason: string): Promise<void>;
  /**
   * Works deploy jobs one at a time. A deploy job sent by this instance (or, on PostgreSQL,
   * another) wakes one of its idle deploy workers, and a worker that ends a run looks for the
   * next at once.
   */
  workDeploys(handler: (jobId: string, data: TDeployJobData) => Promise<void>): Promise<void>;
  /**
   * A job every minute, worked here. Several instances may all call it: the schedule is one row
   * shared by all, pg-boss sends one job a minute, the `stately` policy keeps at most one queued
   * and one running (a slow run never lets minutes pile up), and the work runs only for the
   * instance that claims the minute (scheduled-runs.repository.ts), so a job delivered twice
   * still runs once.
   */
  everyMinute(name: string, work: () => Promise<void>): Promise<void>;
  /**
   * A job on a cron schedule (UTC), worked here when `work` is given; as `everyMinute`, one
   * schedule shared by all instances, at most one queued and one running, and the work run once
   * per `periodMs` slot (the cron's period). `expireInSeconds` is only the backstop for a run
   * that hangs.
   */
  recurring(
    name: string,
    cron: string,
    options: { expireInSeconds: number; periodMs: number; work?: () => Promise<void> },
  ): Promise<void>;
  /**
   * A queue of one-off jobs, worked here one at a time when `work` is given; `send` queues one
   * and wakes a worker of this instance (and, on PostgreSQL, of the others), so it starts
   * without waiting for a poll.
   */
  onDemand<TData extends object>(
    name: string,
    options: {
      expireInSeconds: number;
      work?: (data: TData) => Promise<void>;
      /** Jobs this instance works at once (1 unless said). */
      concurrency?: number;
    },
  ): Promise<TOnDemandQueue<TData>>;
  stop(): Promise<void>;
}

/**
 * pg-boss records a job's completion or failure without awaiting it: a handler that ends after
 * the queue stopped (a run past its grace) would reject on the closed database with nobody to
 * catch it. Those late writes answer nothing instead; the run's own record already says how it
 * ended, and pg-boss expires the job row it could not update (JOB_TIMING.expireInSeconds).
 */
// null, not an empty result: pg-boss reads `rows[0].count` of a result it is given, and reads a
// missing result as nothing affected.
const AFTER_CLOSE = null as unknown as { rows: unknown[] };

/**
 * pg-boss on PGlite. PGlite refuses several statements in one prepared statement ("cannot insert
 * multiple commands into a prepared statement"), and pg-boss sends its migrations that way: so
 * `query` when there are parameters, `exec` otherwise (rows of every statement merged). A failed
 * multi-statement script would leave its BEGIN open on PGlite's single session: roll it back.
 */
export function pgliteBossDb(pglite: PGlite): PgBoss.Db {
  return {
    async executeSql(text: string, values: unknown[] = []) {
      if (pglite.closed) return AFTER_CLOSE;
      try {
        if (values.length > 0) {
          const result = await pglite.query(text, values);
          return { rows: result.rows };
        }
        const results = await pglite.exec(text);
        return { rows: results.flatMap((r) => r.rows) };
      } catch (error) {
        if (/\bBEGIN\b/i.test(text)) await pglite.exec('ROLLBACK').catch(() => {});
        throw error;
      }
    },
  };
}

function bossOptions(database: TDatabase): PgBoss.ConstructorOptions {
  const common: PgBoss.ConstructorOptions = {
    schema: 'pgboss',
    // Cron drives the destination probe (modules/destinations/destination-probe.ts) and the
    // certificate watch's sweep (modules/certificates/certificate-jobs.ts).
    schedule: true,
    supervise: true,
    maintenanceIntervalSeconds: JOB_TIMING.maintenanceIntervalSeconds,
  };
  if (database.kind === 'pglite') return { ...common, db: pgliteBossDb(database.pglite!) };
  return { ...common, db: poolBossDb(database.pool!) };
}

/** pg-boss on the node-postgres pool. */
export function poolBossDb(pool: pg.Pool): PgBoss.Db {
  return {
    executeSql: async (text, values) => {
      if (pool.ending) return AFTER_CLOSE;
      const result = await pool.query(text, values);
      // A multi-statement text answers an array of results.
      const results = Array.isArray(result) ? result : [result];
      return { rows: results.flatMap((r) => r.rows ?? []) };
    },
  };
}

export interface TQueueOptions {
  /** PostgreSQL, where several instances may work the schedules: a recurring job's work runs
   * only for the instance that claims its slot. */
  scheduled?: TScheduledRuns;
  /** PGlite: no other instance can queue a job. */
  solo?: boolean;
  /** PostgreSQL: the other instances say when they queue a job, and hear when this one does. */
  wakeLine?: TWakeLine;
}

/** Wraps a started pg-boss; tests that start their own (cron off) use it too. */
export function queueOver(boss: PgBoss, options: TQueueOptions = {}): TQueue {
  const { scheduled, wakeLine } = options;
  // A job this instance queues wakes one of its idle workers of that queue (jobs/wakeups.ts), a
  // worker that ends a job looks again at once (a job queued while all were busy starts then);
  // on PostgreSQL the wake line does the same for the jobs another instance queues. So polling
  // is a backstop: rare when `solo` (PGlite) or with a wake line, every second without one. A
  // recurring job, which pg-boss's cron queues, is still looked for every few seconds.
  const polling = options.solo
    ? JOB_TIMING.soloPolling
    : wakeLine
      ? JOB_TIMING.heardPolling
      : JOB_TIMING.polling;
  const wakeups = createWakeups((id) => boss.notifyWorker(id));
  // Another instance queued a job (one), or the line lost what was said meanwhile (all).
  wakeLine?.onWake((queue) => (queue === undefined ? wakeups.all() : wakeups.one(queue)));
  /** After a job is queued: a worker of this instance at once, the others' through the line. */
  const queued = (queue: string) => {
    wakeups.one(queue);
    wakeLine?.announce(queue);
  };
  const recurring: TQueue['recurring'] = async (name, cron, options) => {
    await boss.createQueue(name, {
      name,
      policy: 'stately',
      expireInSeconds: options.expireInSeconds,
      retryLimit: 0,
    });
    await boss.schedule(name, cron, {}, { tz: 'UTC' });
    const work = options.work;
    if (!work) return;
    await boss.work(name, { pollingIntervalSeconds: polling.recurringSeconds }, async () => {
      if (!scheduled || (await scheduled.claim(name, options.periodMs))) await work();
    });
  };
  return {
    boss,
    deployJob(data) {
      const id = crypto.randomUUID();
      return {
        id,
        send: async () => {
          const sent = await boss.send(DEPLOY_QUEUE, data, {
            id,
            expireInSeconds: JOB_TIMING.expireInSeconds,
            retryLimit: JOB_TIMING.retryLimit,
          });
          queued(DEPLOY_QUEUE);
          return sent;
        },
      };
    },
    async deployJobInfo(jobId) {
      const job = await boss.getJobById<TDeployJobInfo['data']>(DEPLOY_QUEUE, jobId, {
        includeArchive: true,
      });
      return job ? { state: job.state, data: job.data } : null;
    },
    async failDeployJob(jobId, reason) {
      await boss.fail(DEPLOY_QUEUE, jobId, { reason }).catch(() => {});
    },
    async workDeploys(handler) {
      const worker = wakeups.worker(DEPLOY_QUEUE);
      const id = await boss.work<TDeployJobData>(
        DEPLOY_QUEUE,
        { batchSize: 1, pollingIntervalSeconds: polling.wokenSeconds },
        async ([job]) => {
          if (job) await worker.working(() => handler(job.id, job.data));
        },
      );
      worker.named(id);
    },
    // A run older than a minute is stale: the next one is already due.
    everyMinute: (name, work) =>
      recurring(name, '* * * * *', { expireInSeconds: 55, periodMs: 60_000, work }),
    recurring,
    async onDemand(name, options) {
      await boss.createQueue(name, {
        name,
        policy: 'standard',
        expireInSeconds: options.expireInSeconds,
        retryLimit: 0,
      });
      const work = options.work;
      for (let i = 0; work && i < (options.concurrency ?? 1); i += 1) {
        const worker = wakeups.worker(name);
        const id = await boss.work<Parameters<typeof work>[0]>(
          name,
          { batchSize: 1, pollingIntervalSeconds: polling.wokenSeconds },
          async ([job]) => {
            if (job) await worker.working(() => work(job.data));
          },
        );
        worker.named(id);
      }
      return {
        async send(data, sendOptions) {
          await boss.send(name, data, sendOptions?.id ? { id: sendOptions.id } : {});
          queued(name);
        },
        async state(id) {
          const job = await boss.getJobById(name, id, { includeArchive: true });
          return job?.state ?? null;
        },
      };
    },
    // Handlers see their abort signal (the deploy workers stop first) and end promptly.
    async stop() {
      await wakeLine?.close();
      await boss.stop({ graceful: true, timeout: 10_000, wait: true });
    },
  };
}

/** Starts pg-boss on the app's database with the deploy queue in place. */
export async function startQueue(
  database: TDatabase,
  onError: (error: unknown) => void,
): Promise<TQueue> {
  // PGlite is one process: nothing else can work its schedules or queue its jobs.
  const wakeLine = database.kind === 'postgres' ? await openWakeLine(database, onError) : undefined;
  try {
    const boss = new PgBoss(bossOptions(database));
    boss.on('error', onError);
    await boss.start();
    await boss.createQueue(DEPLOY_QUEUE, {
      name: DEPLOY_QUEUE,
      policy: 'standard',
      expireInSeconds: JOB_TIMING.expireInSeconds,
      retryLimit: JOB_TIMING.retryLimit,
    });
    if (!wakeLine) return queueOver(boss, { solo: true });
    return queueOver(boss, { scheduled: createScheduledRunsRepository(database.db), wakeLine });
  } catch (error) {
    await wakeLine?.close();
    throw error;
  }
}
