import { randomUUID } from 'node:crypto';
import type { TLanguage } from '@portico/shared/api-error';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProxy, signedInClient } from '../../../test/support/proxies-test-helpers';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import { testDatabaseKinds } from '../../../test/support/test-database';
import { openDatabase } from '../../db/client';
import { deploymentLogs, deployments, proxyConfigurations } from '../../db/schema';
import { createScheduledRunsRepository } from '../../jobs/scheduled-runs.repository';
import { createWorkerLiveness } from '../../jobs/worker-liveness';
import { createProxiesRepository } from '../proxies/proxies.repository';
import { reapDeployments, scheduleReaper, type TReaperDeps } from './deployment-reaper';
import { createDeploymentsRepository } from './deployments.repository';
import { createRunLog } from './run-log';

// A run left `running` by a process that died (nothing in this process works it, no advisory
// lock held) is started again once with a log line, and recorded failed the second time.
describe.each(testDatabaseKinds())('interrupted deployments on %s', (kind) => {
  let t: TTestApp;
  let deps: TReaperDeps;
  beforeAll(async () => {
    t = await createTestApp(kind);
    const { db } = t.database;
    const deployments = createDeploymentsRepository(db);
    const bus = { publish: () => {}, subscribe: () => () => {}, close: async () => {} };
    deps = {
      deployments,
      proxies: createProxiesRepository(db),
      runLog: createRunLog({ deployments, bus }),
      liveness: await createWorkerLiveness(t.database),
      queue: t.app.queue,
      log: { info: () => {} },
    };
  });
  afterAll(async () => {
    await deps?.liveness.close();
    await t?.close();
  });

  async function strandedRun(attempt: number, language: TLanguage = 'en') {
    const { client, user } = await signedInClient(t);
    const { id } = await createProxy(client, { serverIp: '127.0.0.1', sshPort: 1 });
    await t.database.db
      .update(proxyConfigurations)
      .set({ status: 'deploying' })
      .where(eq(proxyConfigurations.id, id));
    const jobId = randomUUID();
    const [run] = await t.database.db
      .insert(deployments)
      .values({
        configurationId: id,
        trigger: 'deploy',
        requestedBy: user.id,
        status: 'running',
        jobId,
        language,
      })
      .returning();
    // The job as a killed worker leaves it: active, nobody working it.
    await t.app.queue.boss.send(
      'deploy',
      { deploymentId: run!.id, configurationId: id, attempt },
      { id: jobId },
    );
    await t.app.queue.boss.fetch('deploy');
    return { client, id, run: run! };
  }

  async function linesOf(id: string) {
    return t.database.db
      .select()
      .from(deploymentLogs)
      .where(eq(deploymentLogs.configurationId, id))
      .orderBy(deploymentLogs.id);
  }

  it('starts an interrupted run again with a log line, and it ends', async () => {
    const { id, run } = await strandedRun(1);
    expect(await reapDeployments(deps)).toBeGreaterThanOrEqual(1);
    const lines = await linesOf(id);
    expect(lines[0]!.message).toMatch(
      /^The previous attempt was interrupted \(the Portico process working it stopped\); starting it again/,
    );
    const deadline = Date.now() + 30_000;
    for (;;) {
      const [row] = await t.database.db
        .select()
        .from(deployments)
        .where(eq(deployments.id, run.id));
      if (row!.status === 'failed' || row!.status === 'completed') break;
      if (Date.now() > deadline) throw new Error(`run stayed ${row!.status}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const [config] = await t.database.db
      .select()
      .from(proxyConfigurations)
      .where(eq(proxyConfigurations.id, id));
    expect(config!.status).toBe('failed');
    // The second attempt speaks the requester's language too.
    const messages = (await linesOf(id)).map((l) => l.message);
    expect(
      messages.some((m) =>
        /^Deploying \S+ -> http:\/\/10\.0\.0\.5:8080 on 127\.0\.0\.1\.$/.test(m),
      ),
    ).toBe(true);
  });

  it('records a run interrupted a second time as failed, in the language of the run', async () => {
    const { id, run } = await strandedRun(2, 'es');
    await reapDeployments(deps);
    const [row] = await t.database.db.select().from(deployments).where(eq(deployments.id, run.id));
    expect(row).toMatchObject({ status: 'failed', errorCode: 'interrupted' });
    const [config] = await t.database.db
      .select()
      .from(proxyConfigurations)
      .where(eq(proxyConfigurations.id, id));
    expect(config!.status).toBe('failed');
    expect((await linesOf(id)).at(-1)).toMatchObject({
      level: 'error',
      message: expect.stringContaining(
        'se volvió a interrumpir (se detuvo el proceso de Portico que lo ejecutaba)',
      ),
    });
  });

  it('leaves a run alone that its worker ended after the reaper read it', async () => {
    for (const attempt of [1, 2]) {
      const { id, run } = await strandedRun(attempt);
      // The run ends (here: failed on its deadline) between the reaper's read and its write.
      const endedMeanwhile: TReaperDeps = {
        ...deps,
        deployments: {
          ...deps.deployments,
          async unfinished() {
            const rows = await deps.deployments.unfinished();
            await t.database.db
              .update(deployments)
              .set({ status: 'failed', errorCode: 'timeout', finishedAt: new Date() })
              .where(eq(deployments.id, run.id));
            return rows;
          },
        },
      };
      await reapDeployments(endedMeanwhile);
      const [row] = await t.database.db
        .select()
        .from(deployments)
        .where(eq(deployments.id, run.id));
      expect(row).toMatchObject({ status: 'failed', errorCode: 'timeout', jobId: run.jobId });
      expect(await linesOf(id)).toEqual([]);
    }
  });

  it('fails a configuration left deploying without a run (its request died), once it is old', async () => {
    const { client } = await signedInClient(t);
    const { id } = await createProxy(client, { serverIp: '127.0.0.1', sshPort: 1 });
    const mark = (updatedAt: Date) =>
      t.database.db
        .update(proxyConfigurations)
        .set({ status: 'deploying', updatedAt })
        .where(eq(proxyConfigurations.id, id));
    const statusOf = async () =>
      (
        await t.database.db.select().from(proxyConfigurations).where(eq(proxyConfigurations.id, id))
      )[0]!.status;
    // Just claimed: its request may still be recording the run.
    await mark(new Date());
    await reapDeployments(deps);
    expect(await statusOf()).toBe('deploying');

    await mark(new Date(Date.now() - 60_000));
    await reapDeployments(deps);
    expect(await statusOf()).toBe('failed');
    expect((await linesOf(id)).at(-1)).toMatchObject({
      level: 'error',
      deploymentId: null,
      message: expect.stringContaining('Portico se detuvo antes de que empezara'),
    });
  });

  it('leaves a run alone while a live worker holds it', async () => {
    const { run } = await strandedRun(1);
    // On PostgreSQL another instance's advisory lock; on PGlite this process's own registry.
    const holder = kind === 'postgres' ? await createWorkerLiveness(t.database) : deps.liveness;
    await holder.hold(run.id);
    try {
      await reapDeployments(deps);
      const [row] = await t.database.db
        .select()
        .from(deployments)
        .where(eq(deployments.id, run.id));
      expect(row!.status).toBe('running');
    } finally {
      await holder.release(run.id);
      if (holder !== deps.liveness) await holder.close();
    }
  });

  // Two instances on one PostgreSQL (each its own pool) tick every interval: the reap runs on
  // the one that claims the interval. Counted by the reaps that read the unfinished runs.
  const onPostgres = kind === 'postgres' ? it : undefined;
  onPostgres?.('two instances ticking in one interval reap once', async () => {
    const second = await openDatabase({
      databaseUrl: t.database.pool!.options.connectionString!,
      poolSize: 2,
    });
    const reapers: ReturnType<typeof scheduleReaper>[] = [];
    try {
      let reaps = 0;
      const counted = {
        ...deps,
        deployments: {
          ...deps.deployments,
          unfinished: () => {
            reaps += 1;
            return deps.deployments.unfinished();
          },
        },
      };
      const slot = async () => {
        const { rows } = await t.database.pool!.query<{ slot: string }>(
          `select floor(extract(epoch from now()) / 3600)::bigint as slot`,
        );
        return Number(rows[0]!.slot);
      };
      // A name of its own (the app's own reaper claims the real one) and an hour-long interval.
      for (const database of [t.database, second]) {
        const runs = createScheduledRunsRepository(database.db);
        reapers.push(
          scheduleReaper(
            counted,
            () => {},
            (name) => runs.claim(`${name}-test`, 3_600_000),
          ),
        );
      }
      const before = await slot();
      await Promise.all([...reapers, ...reapers, ...reapers].map((r) => r.tick()));
      expect(reaps).toBe((await slot()) - before + 1);
    } finally {
      for (const reaper of reapers) reaper.stop();
      await second.close();
    }
  });
});
