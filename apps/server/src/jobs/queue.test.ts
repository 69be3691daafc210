import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBoss } from '../../test/support/test-boss';
import {
  createTestDatabase,
  type TTestDatabase,
  testDatabaseKinds,
} from '../../test/support/test-database';
import { pgliteBossDb, poolBossDb, queueOver } from './queue';
import { DEPLOY_QUEUE } from './queues';

// Well inside the minute a poll would take: only a wake-up starts a run this soon.
const SOON_MS = 15_000;
const soon = (what: string, done: () => boolean) =>
  expect
    .poll(done, { message: `${what} within ${SOON_MS} ms`, timeout: SOON_MS, interval: 20 })
    .toBe(true);

// pg-boss writes a job's completion or failure without awaiting it, so a handler that ends after
// the queue stopped must not meet a rejection from the closed database (it would be unhandled).
async function openAdapter(
  kind: 'pglite' | 'postgres',
): Promise<{ db: PgBoss.Db; close(): Promise<void> }> {
  if (kind === 'pglite') {
    const pglite = new PGlite();
    return { db: pgliteBossDb(pglite), close: () => pglite.close() };
  }
  const pool = new pg.Pool({ connectionString: process.env.TEST_DATABASE_URL, max: 1 });
  return { db: poolBossDb(pool), close: () => pool.end() };
}

describe.each(testDatabaseKinds())('the queue database on %s', (kind) => {
  // A fresh PGlite runs initdb in this process: seconds of CPU, far more on a loaded machine.
  it('answers while open and answers nothing (what pg-boss reads as nothing affected), without rejecting, once closed', {
    timeout: 120_000,
  }, async () => {
    const adapter = await openAdapter(kind);
    await expect(adapter.db.executeSql('select 1 as one', [])).resolves.toEqual({
      rows: [{ one: 1 }],
    });
    await adapter.close();
    await expect(adapter.db.executeSql('select 1 as one', [])).resolves.toBeNull();
  });
});

describe.each(testDatabaseKinds())(
  'deploy workers alone with their database (a poll once a minute), on %s',
  (kind) => {
    let t: TTestDatabase;
    let boss: PgBoss;
    beforeAll(async () => {
      t = await createTestDatabase(kind);
      boss = await startTestBoss(t, { queues: [DEPLOY_QUEUE] });
    });
    afterAll(async () => {
      await boss?.stop({ graceful: false, wait: true });
      await t?.drop();
    });

    it('a run queued starts at once, and one queued while the worker is busy starts when it ends', async () => {
      const queue = queueOver(boss, { solo: true });
      const started: string[] = [];
      let release = () => {};
      const busy = new Promise<void>((resolve) => {
        release = resolve;
      });
      await queue.workDeploys(async (_jobId, data) => {
        started.push(data.deploymentId);
        if (data.deploymentId === 'first') await busy;
      });
      // The worker's first look, at its start, found nothing: it now waits a minute.
      await new Promise((r) => setTimeout(r, 300));

      const data = (deploymentId: string) => ({ deploymentId, configurationId: 'c', attempt: 1 });
      await queue.deployJob(data('first')).send();
      await soon('the first run', () => started.includes('first'));

      await queue.deployJob(data('second')).send();
      await new Promise((r) => setTimeout(r, 500));
      expect(started).toEqual(['first']);
      release();
      await soon('the second run', () => started.includes('second'));
      expect(started).toEqual(['first', 'second']);
    });
  },
);

describe('idle deploy workers on pglite, and one run queued', () => {
  let t: TTestDatabase;
  let boss: PgBoss;
  beforeAll(async () => {
    t = await createTestDatabase('pglite');
    boss = await startTestBoss(t, { queues: [DEPLOY_QUEUE] });
  });
  afterAll(async () => {
    await boss?.stop({ graceful: false, wait: true });
    await t?.drop();
  });

  it('one worker looks for it (not all three), and once more as it ends the run', async () => {
    const queue = queueOver(boss, { solo: true });
    const started: string[] = [];
    for (let i = 0; i < 3; i++) {
      await queue.workDeploys(async (_jobId, data) => void started.push(data.deploymentId));
    }
    await new Promise((r) => setTimeout(r, 300));
    // pg-boss's look for a job, counted on the database it asks.
    const pglite = t.database.pglite!;
    const query = pglite.query.bind(pglite);
    let looks = 0;
    pglite.query = ((text: string, ...rest: unknown[]) => {
      if (/SKIP LOCKED/i.test(text)) looks++;
      return (query as (...a: unknown[]) => Promise<unknown>)(text, ...rest);
    }) as typeof pglite.query;
    try {
      await queue.deployJob({ deploymentId: 'only', configurationId: 'c', attempt: 1 }).send();
      await soon('the run', () => started.includes('only'));
      await new Promise((r) => setTimeout(r, 500));
      expect(started).toEqual(['only']);
      expect(looks).toBe(2);
    } finally {
      pglite.query = query;
    }
  });
});
