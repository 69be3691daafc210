// The destination probe: real TCP connects to a listener on 127.0.0.1 (online) and to a closed
// port (offline), recorded in PGlite and in PostgreSQL when TEST_DATABASE_URL is set.
import { createServer, type Server } from 'node:net';
import { eq } from 'drizzle-orm';
import PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { destinationServers } from '../../db/schema';
import { freePort } from '../../deploy/ssh/test-sshd';
import { pgliteBossDb } from '../../jobs/pglite-adapter';
import {
  createTestDatabase,
  type TTestDatabase,
  testDatabaseKinds,
} from '../../test-support/test-database';
import {
  DESTINATION_PROBE_JOB,
  probeDestinations,
  probeTargetOf,
  registerDestinationProbe,
  tcpProbe,
} from './destination-probe';

let listener: Server;
let openPort: number;
let closedPort: number;

beforeAll(async () => {
  listener = createServer((socket) => socket.end());
  openPort = await new Promise<number>((resolve) => {
    listener.listen(0, '127.0.0.1', () => resolve((listener.address() as { port: number }).port));
  });
  closedPort = await freePort();
});
afterAll(() => {
  listener?.close();
});

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
    const online = await tcpProbe({ host: '127.0.0.1', port: openPort });
    expect(online.status).toBe('online');
    expect(online.latencyMs).toBeGreaterThanOrEqual(0);
    expect(await tcpProbe({ host: '127.0.0.1', port: closedPort })).toEqual({
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
        { name: 'up', endpoint: `http://127.0.0.1:${openPort}` },
        { name: 'down', endpoint: `127.0.0.1:${closedPort}` },
        { name: 'resting', endpoint: `127.0.0.1:${openPort}`, isActive: false },
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
      .set({ endpoint: `http://127.0.0.1:${closedPort}` })
      .where(eq(destinationServers.id, up.id));
    await probeDestinations(t.database);
    expect(await byName('up')).toMatchObject({ status: 'offline', latencyMs: null });
  });
});

describe.each(testDatabaseKinds())('registerDestinationProbe on %s', (kind) => {
  let t: TTestDatabase;
  let boss: PgBoss;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
    // The cron monitor is off: the test sends the job itself instead of waiting for a minute.
    const common = { schedule: false, supervise: false };
    boss =
      kind === 'pglite'
        ? new PgBoss({ ...common, db: pgliteBossDb(t.database.pglite!) })
        : new PgBoss({ ...common, connectionString: t.url! });
    boss.on('error', () => {});
    await boss.start();
  });
  afterAll(async () => {
    await boss?.stop({ graceful: false, wait: true });
    await t?.drop();
  });

  it('schedules the probe every minute and works its jobs', async () => {
    const [row] = await t.database.db
      .insert(destinationServers)
      .values({ name: 'queued', endpoint: `127.0.0.1:${openPort}` })
      .returning();
    await registerDestinationProbe(boss, t.database);
    // A second instance registering again changes nothing.
    await registerDestinationProbe(boss, t.database);
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
