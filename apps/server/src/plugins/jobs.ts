import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import PgBoss from 'pg-boss';
import type { TDatabase } from '../db/client';
import { pgliteBossDb } from '../jobs/pglite-adapter';
import { DEPLOY_QUEUE, JOB_TIMING } from '../jobs/queues';

declare module 'fastify' {
  interface FastifyInstance {
    /** pg-boss, started with the app and stopped on close. */
    boss: PgBoss;
  }
}

export interface TJobsPluginOptions {
  database: TDatabase;
}

function bossOptions(database: TDatabase): PgBoss.ConstructorOptions {
  const common: PgBoss.ConstructorOptions = {
    schema: 'pgboss',
    // Cron drives the destination probe (modules/destinations/destination-probe.ts).
    schedule: true,
    supervise: true,
    maintenanceIntervalSeconds: JOB_TIMING.maintenanceIntervalSeconds,
  };
  if (database.kind === 'pglite') return { ...common, db: pgliteBossDb(database.pglite!) };
  const pool = database.pool!;
  return {
    ...common,
    db: {
      executeSql: async (text, values) => {
        const result = await pool.query(text, values);
        // A multi-statement text answers an array of results.
        const results = Array.isArray(result) ? result : [result];
        return { rows: results.flatMap((r) => r.rows ?? []) };
      },
    },
  };
}

async function jobsPlugin(app: FastifyInstance, options: TJobsPluginOptions) {
  const boss = new PgBoss(bossOptions(options.database));
  boss.on('error', (error) => app.log.error({ err: error }, 'job queue error'));
  await boss.start();
  await boss.createQueue(DEPLOY_QUEUE, {
    name: DEPLOY_QUEUE,
    policy: 'standard',
    expireInSeconds: JOB_TIMING.expireInSeconds,
    retryLimit: JOB_TIMING.retryLimit,
  });
  app.decorate('boss', boss);
  app.addHook('onClose', async () => {
    // Handlers see their abort signal (deployments' onClose hook) and end promptly.
    await boss.stop({ graceful: true, timeout: 10_000, wait: true });
  });
}

export const jobs = fp(jobsPlugin, { name: 'portico-jobs' });
