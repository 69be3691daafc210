/** The deploy queue and its timing, chosen on purpose (pg-boss defaults: 15 min expiry). */
export const DEPLOY_QUEUE = 'deploy';
/** The per-server actions' runs ("redeploy all", "check all certificates"). */
export const SERVER_RUN_QUEUE = 'server-run';

export interface TDeployJobData {
  deploymentId: string;
  configurationId: string;
  /**
   * Apply of a plan: its fingerprint, checked before the run writes anything. A run the reaper
   * starts again goes without it (its first attempt may have written the files itself).
   */
  planFingerprint?: string;
}

export const JOB_TIMING = {
  // A run that takes longer than this is stuck (apt, certbot and nginx together take a few
  // minutes at worst); pg-boss then fails the job and the reaper records the deployment failed.
  expireInSeconds: 30 * 60,
  // A dead worker is found by the reaper (advisory lock / in-process registry), not by expiry,
  // so pg-boss itself never retries: a retry is our own decision with a log line.
  retryLimit: 0,
  maintenanceIntervalSeconds: 60,
  // How often each instance looks for runs whose worker died.
  reaperIntervalMs: 30_000,
  // How often an idle worker looks for a job. One woken when a job is queued (deploys,
  // on-demand) looks only as a backstop: alone on PGlite once a minute (each look there a PGlite
  // query on the main thread: ten deploy workers looking each second cost an idle instance 2.5 %
  // of a core), on PostgreSQL, where the other instances say when they queue a job (the wake
  // line, jobs/wake-line.ts), every 30 s, for a line that died without a word. Every second
  // without a wake line (tests that build a queue of their own). A recurring one finds what
  // pg-boss's cron queued, which nobody announces.
  polling: { wokenSeconds: 1, recurringSeconds: 2 },
  heardPolling: { wokenSeconds: 30, recurringSeconds: 2 },
  soloPolling: { wokenSeconds: 60, recurringSeconds: 10 },
  // Runs one instance works at once (each is mostly waiting on a remote server).
  concurrency: 10,
  // A run's own time limit, well inside the expiry: at it the run is asked to stop (its SSH
  // connection closes), and it is recorded failed with a line saying so. It holds the server's
  // lock and a worker at most abandonGraceMs longer, even if the engine never answers.
  runDeadlineMs: 20 * 60_000,
  abandonGraceMs: 10_000,
  // A removal runs inside the delete request: it is stopped (and the server's lock let go) after
  // this, and the request answers saying so.
  removeDeadlineMs: 5 * 60_000,
  // A per-server run ("redeploy all" goes through the proxies one deployment at a time) ends
  // timed-out at this, freeing its server for the next run; the deployment it waited on goes on.
  serverRunDeadlineMs: 12 * 60 * 60_000,
} as const;
