// The destination probe: real TCP connects to a listener on 127.0.0.1 (online) and to a closed
// port (offline), recorded in PGlite and in PostgreSQL when TEST_DATABASE_URL is set.
import { eq } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestEndpoints } from '../../../test/peers/test-endpoints';
import { startTestBoss } from '../../../test/support/test-boss';
import {
  createTestDatabase,
  type TTestDatabase,
  testDatabaseKinds,
} from '../../../test/support/test-database';
import { destinationServers } from '../../db/schema';
import { queueOver } from '../../jobs/queue';
import {
  createImmediateProber,
  DESTINATION_PROBE_JOB,
  probeDestinations,
  probeTargetOf,
  registerDestinationProbe,
  tcpProbe,
} from './destination-probe';
import { createDestinationsRepository } from './destinations.repository';

const endpoints = useTestEndpoints();

describe('probeTargetOf', () => {
  it('reads host and port from each endpoint form, defaulting the port by scheme', () => {
    expect(probeTargetOf('10.0.0.5')).toEqual({ host: '10.0.0.5', port: 80 });
    expect(probeTargetOf('backend.local:3000')).toEqual({ host: 'backend.local', port: 3000 });
    expect(probeTargetOf('app.example.test')).toEqual({ host: 'app.example.test', port: 80 });
    expect(probeTargetOf('http://app.example.test')).toEqual({
      host: 'app.example.test',
      port: 80,
    });
    expect(probeTargetOf('https://app.example.test/path')).toEqual({
      host: 'app.example.test',
      port: 443,
    });
    expect(probeTargetOf('HTTPS://app.example.test:8443')).toEqual({
      host: 'app.example.test',
      port: 8443,
    });
    expect(probeTargetOf('host:0')).toBeUndefined();
    expect(probeTargetOf('host:70000')).toBeUndefined();
    expect(probeTargetOf('bad host')).toBeUndefined();
  });
});

describe('tcpProbe', () => {
  it('is online with a latency when something listens, offline when the port is closed', async () => {
    const online = await tcpProbe({ host: '127.0.0.1', port: endpoints.openPort });
    expect(online.status).toBe('online');
    expect(online.latencyMs).toBeGreaterThanOrEqual(0);
    expect(await tcpProbe({ host: '127.0.0.1', port: endpoints.closedPort })).toEqual({
      status: 'offline',
      latencyMs: null,
    });
  });

  it('ends at once when stopped, without connecting', async () => {
    const stopped = AbortSignal.abort();
    expect(await tcpProbe({ host: '127.0.0.1', port: endpoints.openPort }, 5000, stopped)).toEqual({
      status: 'offline',
      latencyMs: null,
    });
  });
});

describe.each(testDatabaseKinds())('probeDestinations on %s', (kind) => {
  let t: TTestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await t?.drop();
  });

  it('records online, offline and latency for active destinations only', async () => {
    const rows = await t.database.db
      .insert(destinationServers)
      .values([
        { name: 'up', endpoint: `http://127.0.0.1:${endpoints.openPort}` },
        { name: 'down', endpoint: `127.0.0.1:${endpoints.closedPort}` },
        { name: 'resting', endpoint: `127.0.0.1:${endpoints.openPort}`, isActive: false },
      ])
      .returning();
    const before = new Date();
    const summary = await probeDestinations(t.database);
    expect(summary).toEqual({ probed: 2, online: 1, offline: 1 });

    const byName = async (name: string) =>
      (
        await t.database.db
          .select()
          .from(destinationServers)
          .where(eq(destinationServers.name, name))
      )[0]!;
    const up = await byName('up');
    expect(up.status).toBe('online');
    expect(up.latencyMs).toBeGreaterThanOrEqual(0);
    expect(up.lastCheckedAt!.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);
    const down = await byName('down');
    expect(down).toMatchObject({ status: 'offline', latencyMs: null });
    expect(down.lastCheckedAt).not.toBeNull();
    expect(await byName('resting')).toMatchObject({ status: 'unknown', lastCheckedAt: null });
    expect(rows).toHaveLength(3);

    // The listener goes away: the next probe turns the destination offline.
    await t.database.db
      .update(destinationServers)
      .set({ endpoint: `http://127.0.0.1:${endpoints.closedPort}` })
      .where(eq(destinationServers.id, up.id));
    await probeDestinations(t.database);
    expect(await byName('up')).toMatchObject({ status: 'offline', latencyMs: null });
  });
});

describe.each(testDatabaseKinds())('the immediate probe on %s', (kind) => {
  let t: TTestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await t?.drop();
  });

  const statusOf = async (id: string) =>
    (
      await t.database.db.select().from(destinationServers).where(eq(destinationServers.id, id))
    )[0]!;

  it('records an active destination, leaves an inactive one, and nothing once closed', async () => {
    const repository = createDestinationsRepository(t.database.db);
    const prober = createImmediateProber(repository);
    const [up, resting, late] = await t.database.db
      .insert(destinationServers)
      .values([
        { name: 'now', endpoint: `127.0.0.1:${endpoints.openPort}` },
        { name: 'resting', endpoint: `127.0.0.1:${endpoints.openPort}`, isActive: false },
        { name: 'late', endpoint: `127.0.0.1:${endpoints.openPort}` },
      ])
      .returning();
    prober.probe(up!);
    prober.probe(resting!);
    for (let i = 0; i < 100 && (await statusOf(up!.id)).status === 'unknown'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await statusOf(up!.id)).toMatchObject({ status: 'online' });
    // Once the app closes, a save that comes late probes nothing.
    await prober.close();
    prober.probe(late!);
    await prober.close();
    expect(await statusOf(resting!.id)).toMatchObject({ status: 'unknown', lastCheckedAt: null });
    expect(await statusOf(late!.id)).toMatchObject({ status: 'unknown', lastCheckedAt: null });
  });
});

describe.each(testDatabaseKinds())('registerDestinationProbe on %s', (kind) => {
  let t: TTestDatabase;
  let boss: PgBoss;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
    // The cron monitor is off: the test sends the job itself instead of waiting for a minute.
    boss = await startTestBoss(t);
  });
  afterAll(async () => {
    await boss?.stop({ graceful: false, wait: true });
    await t?.drop();
  });

  it('schedules the probe every minute and works its jobs', async () => {
    const [row] = await t.database.db
      .insert(destinationServers)
      .values({ name: 'queued', endpoint: `127.0.0.1:${endpoints.openPort}` })
      .returning();
    await registerDestinationProbe(queueOver(boss), t.database);
    // A second instance registering again changes nothing.
    await registerDestinationProbe(queueOver(boss), t.database);
    const schedules = await boss.getSchedules();
    expect(schedules).toEqual([
      expect.objectContaining({ name: DESTINATION_PROBE_JOB, cron: '* * * * *' }),
    ]);

    await boss.send(DESTINATION_PROBE_JOB, {});
    let status = 'unknown';
    for (let i = 0; i < 100 && status === 'unknown'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const [current] = await t.database.db
        .select()
        .from(destinationServers)
        .where(eq(destinationServers.id, row!.id));
      status = current!.status;
    }
    expect(status).toBe('online');
  });
});
