// The app schedules the destination probe every minute when asked to (server.ts asks), and not
// in API-only instances.
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import { testDatabaseKinds } from '../../../test/support/test-database';
import { DESTINATION_PROBE_JOB } from './destination-probe';

describe.each(testDatabaseKinds())('destination probe wiring on %s', (kind) => {
  let current: TTestApp | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });

  it('schedules the probe every minute', async () => {
    current = await createTestApp(kind, { destinationProbe: true });
    const schedules = await current.app.queue.boss.getSchedules();
    expect(schedules.find((s) => s.name === DESTINATION_PROBE_JOB)?.cron).toBe('* * * * *');
  });

  it('leaves it out when not asked for', async () => {
    current = await createTestApp(kind);
    const schedules = await current.app.queue.boss.getSchedules();
    expect(schedules.map((s) => s.name)).not.toContain(DESTINATION_PROBE_JOB);
  });
});
