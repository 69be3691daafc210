// Two whole Portico instances on one PostgreSQL, each scheduling the destination probe (every
// minute) and the search for interrupted runs (every 30 s): each runs once per slot of its
// schedule, not once per instance. Counted by triggers this test adds: every probe run writes its
// result to the destination row, every search first claims its slot. Needs TEST_DATABASE_URL;
// like every PostgreSQL suite here it has no cases without it.
import { describe, expect, it } from 'vitest';
import { buildTestApp, TEST_APP_OPTIONS } from '../../test/support/test-app';
import { postgresWithSecondPool, testDatabaseKinds } from '../../test/support/test-database';
import { REAPER_JOB } from '../modules/deployments/deployment-reaper';
import { DESTINATION_PROBE_JOB } from '../modules/destinations/destination-probe';
import { createDestinationsRepository } from '../modules/destinations/destinations.repository';
import { JOB_TIMING } from './queues';

const postgresOnly = testDatabaseKinds().filter((kind) => kind === 'postgres');

describe.each(postgresOnly)('periodic jobs of two instances on %s', () => {
  const shared = postgresWithSecondPool();

  it('the probe and the search for interrupted runs each run once per slot, counted', async () => {
    const pool = shared.testDb.database.pool!;
    await pool.query(`
      create table seen_runs (job text not null, at timestamptz not null default clock_timestamp());
      create function seen_probe() returns trigger language plpgsql as $$
        begin insert into seen_runs (job) values ('probe'); return new; end $$;
      create trigger seen_probe after update of last_checked_at on destination_servers
        for each row execute function seen_probe();
      create function seen_claim() returns trigger language plpgsql as $$
        begin insert into seen_runs (job) values ('claim:' || new.name); return new; end $$;
      create trigger seen_claim after insert or update on scheduled_runs
        for each row execute function seen_claim();`);
    // One destination, on a port nothing listens on: each probe records it offline, at once.
    await createDestinationsRepository(shared.testDb.database.db).insert({
      name: 'counted',
      endpoint: '127.0.0.1:9',
      description: null,
      isActive: true,
      maintenanceNote: null,
    });
    const options = { ...TEST_APP_OPTIONS, destinationProbe: true };
    const apps = [
      await buildTestApp({ ...options, database: shared.testDb.database }),
      await buildTestApp({ ...options, database: shared.second }),
    ];
    try {
      await Promise.all(apps.map((app) => app.ready()));
      const seen = async (job: string) =>
        (
          await pool.query<{ slot: string; runs: number }>(
            `select floor(extract(epoch from at) * 1000 / $2)::bigint as slot, count(*)::int as runs
               from seen_runs where job = $1 group by 1 order by 1`,
            [job, job === 'probe' ? 60_000 : JOB_TIMING.reaperIntervalMs],
          )
        ).rows;
      // Two minutes' probes: both instances scheduled it, and the cron fires on each minute.
      await expect
        .poll(async () => (await seen('probe')).length, { timeout: 150_000, interval: 1_000 })
        .toBeGreaterThanOrEqual(2);
      const probes = await seen('probe');
      expect(probes.map((s) => s.runs)).toEqual(probes.map(() => 1));
      // Its claims agree: one per minute, each the one run of that minute.
      const probeClaims = await seen(`claim:${DESTINATION_PROBE_JOB}`);
      expect(probeClaims.map((s) => s.runs)).toEqual(probeClaims.map(() => 1));
      // The search for interrupted runs: one claim per 30 s slot over the same time, not two.
      // Two probe minutes take just over 60 s at the least: two of its slots have passed by then.
      const reaps = await seen(`claim:${REAPER_JOB}`);
      expect(reaps.length).toBeGreaterThanOrEqual(2);
      expect(reaps.map((s) => s.runs)).toEqual(reaps.map(() => 1));
    } finally {
      for (const app of apps) await app.close();
    }
  }, 200_000);
});
