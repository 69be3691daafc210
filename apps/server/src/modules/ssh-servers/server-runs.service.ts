import type { TLanguage } from '@portico/shared/api-error';
import type { TText } from '@portico/shared/i18n/text';
import type {
  TLatestServerRun,
  TServerRun,
  TServerRunKind,
} from '@portico/shared/ssh-servers/schemas';
import type { TServerRunRow } from '../../db/schema';
import { AppError, KeyedAppError } from '../../lib/app-error';
import { loadServer, type TActor } from './server-access';
import { refusalText } from './server-actions.service';
import type { TServerRunsRepository } from './server-runs.repository';
import { ServerRunActiveError } from './server-runs.repository';
import type { TSshServersRepository } from './ssh-servers.repository';

/** Proxies are read this many at a time: a run on a busy server stays a bounded query. */
const BATCH = 200;
/** Results a read answers at once; `nextAfter` reads the next page. */
export const RESULTS_PAGE = 100;
/** A queued run whose job is missing may be between its insert and its send: leave it a moment. */
const SWEEP_GRACE_MS = 30_000;

/** How one proxy's part of a redeploy ended: its deployment's outcome. */
export type TDeploymentEnd = { ok: true } | { ok: false; text: TText | null };

/** What runs reach through services.ts (modules do not import each other), and the queue. */
export interface TServerRunsDeps {
  servers: Pick<TSshServersRepository, 'findById' | 'proxiesOn' | 'proxyCount'>;
  runs: TServerRunsRepository;
  /** The run's job on the queue (its id is the run's) and what pg-boss says of it. */
  jobs: { send(runId: string): Promise<void>; state(runId: string): Promise<string | null> };
  /** Who works which run (jobs/worker-liveness.ts): a run nobody holds was cut by a restart. */
  liveness: {
    hold(id: string): Promise<void>;
    release(id: string): Promise<void>;
    isAlive(id: string): Promise<boolean>;
  };
  findActor(userId: string): Promise<TActor | undefined>;
  /** Queues a redeploy of one proxy as its own deployment and log; resolves with its id. */
  redeploy(actor: TActor, proxyId: string, language: TLanguage): Promise<string>;
  /** Resolves when the deployment ended; rejects with the signal's reason when it aborts. */
  deploymentEnd(deploymentId: string, signal: AbortSignal): Promise<TDeploymentEnd>;
  checkCertificate(actor: TActor, proxyId: string): Promise<void>;
  /** How long a run may take in all; at it the run ends timed-out (JOB_TIMING.serverRunDeadlineMs). */
  deadlineMs: number;
}

export type TServerRunsService = ReturnType<typeof createServerRunsService>;

/** The catalog's word for each kind (errors.serverRunActive.*). */
const KIND_KEYS = { redeploy: 'redeploy', 'check-certificates': 'checkCertificates' } as const;

const serverRunActive = (active: TServerRunRow) =>
  new KeyedAppError('server_run_active', 409, `errors.serverRunActive.${KIND_KEYS[active.kind]}`, {
    runId: active.id,
  });

/** A refusal as the page shows it (refused); anything else as "something went wrong" (failed). */
function outcomeOf(error: unknown): { outcome: 'refused' | 'failed'; text: TText } {
  const refused = error instanceof AppError && error.statusCode < 500;
  return { outcome: refused ? 'refused' : 'failed', text: refusalText(error) };
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * The per-server actions that go through every proxy on a server ("redeploy all", "check all
 * certificates") as background runs: a start answers at once with the run; the run's job goes
 * through the proxies one after another (a redeploy waits for each deployment to end), never
 * stops on a failure, records each, and ends at its deadline at the latest. One unfinished run
 * per server; a run cut by a restart is recorded failed by the sweep.
 */
export function createServerRunsService(deps: TServerRunsDeps) {
  const { runs } = deps;

  async function view(row: TServerRunRow, after: number): Promise<TServerRun> {
    const page = await runs.resultsAfter(row.id, after, RESULTS_PAGE + 1);
    const results = page.slice(0, RESULTS_PAGE).map((r) => ({
      position: r.position,
      id: r.proxyId,
      domain: r.domain,
      outcome: r.outcome,
      deploymentId: r.deploymentId,
      text: r.text ?? null,
    }));
    return {
      id: row.id,
      sshServerId: row.sshServerId,
      kind: row.kind,
      state: row.state,
      done: row.done,
      failed: row.failed,
      refused: row.refused,
      total: row.total,
      text: row.text ?? null,
      createdAt: row.createdAt.toISOString(),
      startedAt: iso(row.startedAt),
      finishedAt: iso(row.finishedAt),
      deadlineAt: row.deadlineAt.toISOString(),
      results,
      nextAfter: page.length > RESULTS_PAGE ? results.at(-1)!.position : null,
    };
  }

  /** 409 naming the server's unfinished run, if it has one. */
  async function refuseWhileRunning(serverId: string): Promise<void> {
    const active = await runs.activeFor(serverId);
    if (active) throw serverRunActive(active);
  }

  /** One proxy's part: what it did, never a throw (a failure is the proxy's, not the run's). */
  async function oneProxy(
    run: TServerRunRow,
    actor: TActor,
    proxyId: string,
    signal: AbortSignal,
  ): Promise<{
    outcome: 'done' | 'failed' | 'refused';
    deploymentId: string | null;
    text: TText | null;
  }> {
    try {
      if (run.kind === 'check-certificates') {
        await deps.checkCertificate(actor, proxyId);
        return { outcome: 'done', deploymentId: null, text: null };
      }
      const deploymentId = await deps.redeploy(actor, proxyId, run.language as TLanguage);
      const end = await deps.deploymentEnd(deploymentId, signal);
      return end.ok
        ? { outcome: 'done', deploymentId, text: null }
        : { outcome: 'failed', deploymentId, text: end.text ?? { key: 'errors.serverError' } };
    } catch (error) {
      if (signal.aborted) throw error;
      return { ...outcomeOf(error), deploymentId: null };
    }
  }

  async function goThrough(run: TServerRunRow, actor: TActor, signal: AbortSignal) {
    let position = 0;
    for (let after: string | undefined; ; ) {
      const batch = await deps.servers.proxiesOn(run.sshServerId, after, BATCH);
      for (const proxy of batch) {
        signal.throwIfAborted();
        const result = await oneProxy(run, actor, proxy.id, signal);
        await runs.addResult({
          runId: run.id,
          position: position++,
          proxyId: proxy.id,
          domain: proxy.domain,
          ...result,
        });
      }
      if (batch.length < BATCH) return;
      after = batch.at(-1)!.id;
    }
  }

  return {
    refuseWhileRunning,

    /** Queues a run: the answer (202) carries it at once; a second start is refused (409). */
    async start(
      actor: TActor,
      serverId: string,
      kind: TServerRunKind,
      language: TLanguage,
    ): Promise<TServerRun> {
      const server = await loadServer(deps.servers, actor, serverId);
      await refuseWhileRunning(server.id);
      const id = crypto.randomUUID();
      let row: TServerRunRow;
      try {
        row = await runs.insert({
          id,
          sshServerId: server.id,
          kind,
          requestedBy: actor.id,
          language,
          total: await deps.servers.proxyCount(server.id),
          deadlineAt: new Date(Date.now() + deps.deadlineMs),
        });
      } catch (error) {
        // Two starts at once: the one that lost names the one that won.
        const winner = error instanceof ServerRunActiveError && (await runs.activeFor(server.id));
        if (winner) throw serverRunActive(winner);
        throw error;
      }
      try {
        await deps.jobs.send(id);
      } catch (error) {
        await runs.finish(id, 'failed', { key: 'errors.serverError' });
        throw error;
      }
      await runs.pruneFor(server.id);
      return view(row, -1);
    },

    async read(actor: TActor, serverId: string, runId: string, after: number) {
      const server = await loadServer(deps.servers, actor, serverId);
      const row = await runs.findById(runId);
      if (!row || row.sshServerId !== server.id) {
        throw new KeyedAppError('server_run_not_found', 404, 'errors.serverRunNotFound');
      }
      return view(row, after);
    },

    async latest(actor: TActor, serverId: string): Promise<TLatestServerRun> {
      const server = await loadServer(deps.servers, actor, serverId);
      const row = await runs.latestFor(server.id);
      return { run: row ? await view(row, -1) : null };
    },

    /**
     * The run's job: goes through the server's proxies until done, its deadline, or `stop`
     * (this instance shutting down: the run is left for the sweep of the next start).
     */
    async work(runId: string, stop: AbortSignal): Promise<void> {
      await deps.liveness.hold(runId);
      try {
        const run = await runs.findById(runId);
        if (!run) return;
        const left = run.deadlineAt.getTime() - Date.now();
        if (!(await runs.move(runId, ['queued'], { state: 'running', startedAt: new Date() }))) {
          return;
        }
        const actor = run.requestedBy ? await deps.findActor(run.requestedBy) : undefined;
        if (!actor) {
          await runs.finish(runId, 'failed', { key: 'errors.serverError' });
          return;
        }
        const deadline = AbortSignal.timeout(Math.max(left, 0));
        const signal = AbortSignal.any([stop, deadline]);
        try {
          await goThrough(run, actor, signal);
          await runs.finish(runId, 'done', null);
        } catch (error) {
          if (deadline.aborted) {
            await runs.finish(runId, 'timed-out', { key: 'sshServer.run.timedOut' });
          } else if (!stop.aborted) {
            await runs.finish(runId, 'failed', { key: 'errors.serverError' });
            throw error;
          }
        }
      } finally {
        await deps.liveness.release(runId);
      }
    },

    /**
     * Runs past their deadline are recorded timed-out; runs nobody works any more (the process
     * that ran them stopped or died) failed, saying so; a queued one whose job still waits is
     * left to it.
     */
    async sweep(): Promise<number> {
      let swept = 0;
      const before = new Date(Date.now() - SWEEP_GRACE_MS);
      for (let after: string | undefined; ; ) {
        const batch = await runs.unfinishedAfter(after, BATCH);
        for (const row of batch) {
          // Past its deadline (and the grace its worker has to say so): whatever holds it, or
          // if nothing ever took it (no instance with workers), the run is over.
          if (row.deadlineAt.getTime() < Date.now() - SWEEP_GRACE_MS) {
            if (await runs.finish(row.id, 'timed-out', { key: 'sshServer.run.timedOut' })) swept++;
            continue;
          }
          if (await deps.liveness.isAlive(row.id)) continue;
          if (row.state === 'queued') {
            const job = await deps.jobs.state(row.id);
            // Fetched but not started yet, or between the insert and the send: a moment.
            const young = row.createdAt > before;
            if (job === 'created' || job === 'retry' || young) continue;
          }
          if (await runs.finish(row.id, 'failed', { key: 'sshServer.run.interrupted' })) swept++;
        }
        if (batch.length < BATCH) return swept;
        after = batch.at(-1)!.id;
      }
    },
  };
}
