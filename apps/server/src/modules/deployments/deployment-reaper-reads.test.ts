// The reaper runs every 30 s, so it must read the unfinished runs and the stranded claims, not
// every proxy and every run ever made. 3,000 finished proxies (each with its finished run) and
// one configuration left deploying without a run: the pass records that one failed while its
// reads, each explained with the planner's own plan (test/support/rows-read.ts), go through a
// handful of rows of either table. A whole-table read would count 3,000.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertManyProxies } from '../../../test/support/many-proxies';
import { signedInClient } from '../../../test/support/proxies-test-helpers';
import { rowsReadRecorder } from '../../../test/support/rows-read';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import { testDatabaseKinds } from '../../../test/support/test-database';
import { deployments } from '../../db/schema';
import { createWorkerLiveness } from '../../jobs/worker-liveness';
import { createProxiesRepository } from '../proxies/proxies.repository';
import { reapDeployments } from './deployment-reaper';
import { createDeploymentsRepository } from './deployments.repository';
import { createRunLog } from './run-log';

const FINISHED = 3000;

describe.each(testDatabaseKinds())('the reaper reads what it needs on %s', (kind) => {
  let t: TTestApp;
  let stranded: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    const { db } = t.database;
    const { user } = await signedInClient(t);
    const finished = await insertManyProxies(db, user.id, FINISHED, {
      prefix: `reap${process.pid}${kind}`,
      shape: () => ({ status: 'completed' as const }),
    });
    for (let from = 0; from < finished.length; from += 1000) {
      await db.insert(deployments).values(
        finished.slice(from, from + 1000).map((configurationId) => ({
          configurationId,
          trigger: 'deploy' as const,
          requestedBy: user.id,
          status: 'completed' as const,
        })),
      );
    }
    const claimed = await insertManyProxies(db, user.id, 1, {
      prefix: `reap-stranded${process.pid}${kind}`,
      shape: () => ({ status: 'deploying' as const, updatedAt: new Date(Date.now() - 3_600_000) }),
    });
    stranded = claimed[0]!;
    await db.execute(sql`analyze`);
  });
  afterAll(async () => t?.close());

  it('reaps the stranded claim reading a handful of rows, not the tables', async () => {
    const recorder = rowsReadRecorder(t.database);
    const deploymentsRepository = createDeploymentsRepository(recorder.db);
    const bus = { publish: () => {}, subscribe: () => () => {}, close: async () => {} };
    const liveness = await createWorkerLiveness(t.database);
    try {
      const reaped = await reapDeployments({
        deployments: deploymentsRepository,
        proxies: createProxiesRepository(recorder.db),
        runLog: createRunLog({ deployments: deploymentsRepository, bus }),
        liveness,
        queue: t.app.queue,
        log: { info: () => {} },
      });
      expect(reaped).toBe(1);
    } finally {
      await liveness.close();
    }
    const row = await createProxiesRepository(t.database.db).findById(stranded);
    expect(row?.status).toBe('failed');
    expect(recorder.statements.length).toBeGreaterThanOrEqual(2);
    expect(recorder.rowsRead('proxy_configurations')).toBeLessThanOrEqual(5);
    expect(recorder.rowsRead('deployments')).toBeLessThanOrEqual(5);
  });
});
