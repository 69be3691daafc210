// Instances on one PostgreSQL tell each other when they queue a job (jobs/wake-line.ts), so their
// workers, which poll only every 30 s, start another instance's job at once: two queues on two
// pg-boss instances, one database. The line's own connection is ended by the database
// (pg_terminate_backend) to show that it listens again and wakes every worker then. Needs
// TEST_DATABASE_URL; like every PostgreSQL suite here it has no cases without it.
import type PgBoss from 'pg-boss';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestBoss } from '../../test/support/test-boss';
import {
  createTestDatabase,
  type TTestDatabase,
  testDatabaseKinds,
} from '../../test/support/test-database';
import { queueOver } from './queue';
import { DEPLOY_QUEUE, JOB_TIMING } from './queues';
import { openWakeLine, type TWakeLine } from './wake-line';

const postgresOnly = testDatabaseKinds().filter((kind) => kind === 'postgres');

// Well inside the 30 s between two polls: only a wake-up starts a job this soon.
const SOON_MS = 10_000;
const soon = (what: string, done: () => boolean | Promise<boolean>) =>
  expect
    .poll(done, { message: `${what} within ${SOON_MS} ms`, timeout: SOON_MS, interval: 20 })
    .toBe(true);

describe.each(postgresOnly)('the wake line between instances on %s', () => {
  let t: TTestDatabase;
  let bosses: PgBoss[] = [];
  let lines: TWakeLine[] = [];
  const errors: unknown[] = [];
  beforeAll(async () => {
    t = await createTestDatabase('postgres');
  });
  afterEach(async () => {
    for (const line of lines) await line.close();
    for (const boss of bosses) await boss.stop({ graceful: false, wait: true });
    bosses = [];
    lines = [];
  });
  afterAll(async () => t?.drop());

  async function instance(withLine = true) {
    const boss = await startTestBoss(t, { queues: [DEPLOY_QUEUE] });
    bosses.push(boss);
    const wakeLine = withLine ? await openWakeLine(t.database, (e) => errors.push(e)) : undefined;
    if (wakeLine) lines.push(wakeLine);
    return { boss, queue: queueOver(boss, { wakeLine }) };
  }
  const data = (deploymentId: string) => ({ deploymentId, configurationId: 'c', attempt: 1 });
  const listeners = async () =>
    (
      await t.database.pool!.query<{ pid: number }>(
        "select pid from pg_stat_activity where datname = current_database() and query = 'LISTEN portico_jobs'",
      )
    ).rows.map((r) => r.pid);

  it('polls every 30 s with the line, and a job queued by an instance with no workers starts at once on another', async () => {
    expect(JOB_TIMING.heardPolling.wokenSeconds).toBe(30);
    const sender = await instance();
    const worker = await instance();
    const started: string[] = [];
    await worker.queue.workDeploys(async (_jobId, job) => void started.push(job.deploymentId));
    const probed: string[] = [];
    await worker.queue.onDemand<{ name: string }>('probe-now', {
      expireInSeconds: 60,
      work: async ({ name }) => void probed.push(name),
    });
    const probes = await sender.queue.onDemand<{ name: string }>('probe-now', {
      expireInSeconds: 60,
    });
    // The workers' first look, at their start, found nothing: the next is 30 s away.
    await new Promise((r) => setTimeout(r, 500));

    await sender.queue.deployJob(data('from-the-sender')).send();
    await soon('the run on the other instance', () => started.includes('from-the-sender'));
    await probes.send({ name: 'one-off' });
    await soon('the one-off job on the other instance', () => probed.includes('one-off'));
    expect(errors).toEqual([]);
  });

  it('ignores what else is said on its channel, and after its connection is ended listens again and wakes every worker', async () => {
    const worker = await instance();
    const started: string[] = [];
    await worker.queue.workDeploys(async (_jobId, job) => void started.push(job.deploymentId));
    await new Promise((r) => setTimeout(r, 500));
    for (const said of ['not json', '5', 'null', '{"q": 5}', '{"o": "x"}']) {
      await t.database.pool!.query("select pg_notify('portico_jobs', $1)", [said]);
    }

    const [pid] = await listeners();
    expect(pid).toBeDefined();
    await t.database.pool!.query('select pg_terminate_backend($1)', [pid]);
    // Queued while the line is down, by an instance without one: nobody is told.
    const silent = await instance(false);
    await silent.boss.send(DEPLOY_QUEUE, data('said-while-deaf'));
    await soon('the line listening again', async () => {
      const now = await listeners();
      return now.length === 1 && now[0] !== pid;
    });
    await soon('the run queued meanwhile', () => started.includes('said-while-deaf'));
    // The loss was reported; nothing said on the channel was taken for an error.
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((e) => /terminat/i.test(String(e)))).toBe(true);
  });
});
