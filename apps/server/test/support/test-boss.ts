import PgBoss from 'pg-boss';
import { pgliteBossDb } from '../../src/jobs/queue';
import type { TTestDatabase } from './test-database';

/**
 * pg-boss started on a test database, with its cron and supervision off: the test sends the
 * jobs itself instead of waiting for a schedule; `queues` are created (standard policy). Stop
 * it with `stop({ graceful: false, wait: true })`.
 */
export async function startTestBoss(
  t: TTestDatabase,
  options: { queues?: string[] } = {},
): Promise<PgBoss> {
  const common = { schedule: false, supervise: false };
  const boss =
    t.database.kind === 'pglite'
      ? new PgBoss({ ...common, db: pgliteBossDb(t.database.pglite!) })
      : new PgBoss({ ...common, connectionString: t.url! });
  boss.on('error', () => {});
  await boss.start();
  for (const name of options.queues ?? [])
    await boss.createQueue(name, { name, policy: 'standard' });
  return boss;
}
